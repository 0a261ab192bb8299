import type { Express } from 'express';
import {
  Counter,
  Gauge,
  createServiceApp,
  createServiceMetrics,
  errorHandler,
  notFoundHandler,
  type Logger,
  type PrincipalSigner,
  type ServiceMetrics,
} from '@skills/common';
import { profileAdminRoutes, profileRoutes } from './http/sign-in/profile.routes';
import type { ProfileDeps } from './sign-in-wiring';
import type { TrustProxy } from './config';
import type { AccountService } from './domain/accounts/account.service';
import type { ApiKeyService } from './domain/keys/api-key.service';
import type { AuditLog } from './domain/audit/audit';
import type { AuthFailureAudit } from './domain/audit/auth-failure-audit';
import type { AuthFailureGuard } from './domain/limits/auth-failure-guard';
import type { KeyAuthenticator } from './domain/keys/key-authenticator';
import type { RateLimiter } from './domain/limits/rate-limiter';
import type { ScannerAuthenticator } from './domain/scanner/scanner-authenticator';
import type { ScannerService } from './domain/scanner/scanner.service';
import { AdmissionGate } from './http/limits/admission';
import { shedWhileFull } from './http/limits/early-shedding';
import type { AnswerCache } from './http/proxy/answer-cache';
import { requireAdminToken } from './http/admin-auth';
import { adminRoutes } from './http/accounts/admin.routes';
import { auditRoutes } from './http/audit/audit.routes';
import { healthRoutes, type Readiness } from './http/health.routes';
import { callerAuthenticator, scannerAuthenticator } from './http/keys/caller-auth';
import { proxyRoutes } from './http/proxy/proxy.routes';
import { scannerGate } from './http/scanner/scanner-gate';
import { scannerRoutes } from './http/scanner/scanners.routes';
import { securityHeaders } from './http/security-headers';
import { openApiRoutes } from './openapi/openapi.routes';
import type { UpstreamName } from './http/proxy/route-table';
import type { Upstream } from './http/proxy/upstream-proxy';
import type { CollectionsCalls } from './domain/workspaces/collections-service';
import type { SearchPolicies } from './domain/workspaces/search-policies';
import { WorkspaceInvitations } from './domain/workspaces/workspace-invitations';
import { workspaceRoutes } from './http/workspaces/workspaces.routes';

export interface GatewayDeps {
  logger: Logger;
  adminToken: string;
  authenticator: KeyAuthenticator;
  accounts: AccountService;
  keys: ApiKeyService;
  /** scanner credentials: authenticated for the verdict route, refused with 403 everywhere else */
  scannerAuthenticator: ScannerAuthenticator;
  /** issues, lists and revokes scanner credentials (/admin/v1/scanners) */
  scanners: ScannerService;
  /** sign-in, sessions, the caller's own keys and the console */
  profile: ProfileDeps;
  signer: PrincipalSigner;
  upstreams: Record<UpstreamName, Upstream>;
  /** collections-service's workspace calls, signed as the caller: the same instance the sign-in rules use */
  collections: CollectionsCalls;
  /** bounds the proxied requests in flight to the services; the defaults when absent */
  admission?: AdmissionGate;
  /** per-account budget of /api/v1 calls; none means unlimited */
  rateLimiter?: RateLimiter;
  /** per-address budget of failed authentications (API keys and the admin token); none means unlimited */
  authFailures?: AuthFailureGuard;
  /** which proxies' X-Forwarded-For tells the client's address (express `trust proxy`); none: the socket's peer */
  trustProxy?: TrustProxy;
  /** the audit trail: proxied admin writes are recorded there, GET /admin/v1/audit-events reads it */
  audit: AuditLog;
  /** counts failed authentications into the audit trail */
  failureAudit?: AuthFailureAudit;
  /** reuses public search answers for a few ms; none: every search goes to catalog-service */
  answerCache?: AnswerCache;
  /** the workspace policies searches apply (bound keys, `workspace=`); none: such searches are refused */
  searchPolicies?: SearchPolicies;
  /** request counts and latencies, served by the monitoring app (monitor-app.ts); a fresh registry when absent */
  metrics?: ServiceMetrics;
  /** what /readyz asks besides the process itself; the public /readyz answers its cached state */
  readiness: Readiness;
  /** Strict-Transport-Security max-age; 0 or absent sends none */
  hstsMaxAgeSeconds?: number;
}

/** What admission control is doing: places taken and waited for now, requests shed since start. */
function registerAdmissionMetrics(registry: ServiceMetrics['registry'], admission: AdmissionGate): void {
  new Gauge({
    name: 'skills_admission_requests',
    help: 'Proxied requests holding a place (in_flight) or waiting for one (waiting), per service and reads or writes',
    labelNames: ['class', 'state'],
    registers: [registry],
    collect() {
      for (const { routeClass, inFlight, waiting } of admission.stats()) {
        this.set({ class: routeClass, state: 'in_flight' }, inFlight);
        this.set({ class: routeClass, state: 'waiting' }, waiting);
      }
    },
  });
  new Counter({
    name: 'skills_admission_shed_total',
    help: 'Proxied requests answered 503 because no place was free and the line was full or waited too long',
    labelNames: ['class'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { routeClass, shed } of admission.stats()) this.inc({ class: routeClass }, shed);
    },
  });
}

/**
 * The public entry: security headers on every answer, health, the admin
 * API, then the proxied routes. Metrics and the live readiness check are not
 * here: they are on the monitoring listener, which no Ingress routes to.
 */
export function createGatewayApp(deps: GatewayDeps): Express {
  const metrics = deps.metrics ?? createServiceMetrics('gateway');
  registerHitMissCounter(
    metrics,
    'skills_key_cache_lookups_total',
    'API key lookups answered from the key cache (hit) or the database (miss)',
    () => deps.authenticator.cacheStats(),
  );
  const { answerCache } = deps;
  if (answerCache) {
    const help =
      'Public search answers served from the gateway answer cache (hit) or fetched from catalog-service (miss)';
    registerHitMissCounter(metrics, 'skills_answer_cache_lookups_total', help, () => answerCache.stats());
  }
  new Counter({
    name: 'skills_password_hashes_total',
    help: 'Password hashes and verifications run (done) or refused because the hashing queue was full (shed)',
    labelNames: ['result'],
    registers: [metrics.registry],
    collect() {
      const { done, shed } = deps.profile.hasher.stats();
      this.reset();
      this.inc({ result: 'done' }, done);
      this.inc({ result: 'shed' }, shed);
    },
  });
  const admission = deps.admission ?? new AdmissionGate();
  registerAdmissionMetrics(metrics.registry, admission);
  const app = createServiceApp({ logger: deps.logger, metrics, serveMetrics: false });
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(securityHeaders({ hstsMaxAgeSeconds: deps.hstsMaxAgeSeconds ?? 0 }));
  app.use(shedWhileFull(admission, deps.answerCache));
  const scanners = deps.scannerAuthenticator;
  app.use(scannerGate(scannerAuthenticator({ ...deps, scanners })));
  app.use('/admin/v1', requireAdminToken(deps.adminToken, deps.authFailures, deps.failureAudit));
  // The proxied routes first: they are nearly all the traffic, and their paths
  // are disjoint from the routes below (a test enumerates both), so a search
  // does not walk the health, document and admin routers first.
  app.use(proxyRoutes({ ...deps, admission, sessions: deps.profile.gate, scanners }));
  app.use(selfServiceWorkspaceRoutes(deps));
  app.use(healthRoutes(deps.readiness));
  // The contract and its docs page are public: no credential check on their paths.
  app.use(openApiRoutes());
  app.use(adminRoutes(deps.accounts, deps.keys));
  app.use(scannerRoutes(deps.scanners));
  app.use(auditRoutes(deps.audit));
  app.use(profileAdminRoutes(deps.profile));
  app.use(profileRoutes(deps.profile));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}

/** Workspace members (with their names) and invitations (with their links): the gateway's own public routes. */
function selfServiceWorkspaceRoutes(deps: GatewayDeps) {
  const { profile, collections: calls } = deps;
  const invitations = new WorkspaceInvitations({
    calls,
    links: profile.links,
    site: profile.site,
    accounts: profile.accounts,
    audit: deps.audit,
    logger: deps.logger,
    mailer: profile.mailer,
    mailQuota: profile.mailQuota,
    emailVerified: (accountId) => profile.credentials.emailVerified(accountId),
  });
  const authenticateCaller = callerAuthenticator({
    ...deps,
    sessions: profile.gate,
    scanners: deps.scannerAuthenticator,
  });
  return workspaceRoutes({ authenticateCaller, gate: profile.gate, calls, invitations, accounts: profile.accounts });
}

/**
 * A hit/miss counter read at scrape time from a cache that knows nothing of
 * Prometheus (the key cache, the answer cache).
 */
function registerHitMissCounter(
  metrics: ServiceMetrics,
  name: string,
  help: string,
  stats: () => { hits: number; misses: number },
): void {
  new Counter({
    name,
    help,
    labelNames: ['result'],
    registers: [metrics.registry],
    collect() {
      const { hits, misses } = stats();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
}
