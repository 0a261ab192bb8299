import {
  PrincipalSigner,
  createServiceMetrics,
  listen,
  openKeysAndDatabase,
  openSigningKeyFile,
  type Logger,
  type RunningService as CommonRunningService,
  type ServiceMetrics,
  type SigningKeySource,
} from '@skills/common';
import type { Express } from 'express';
import type { Sequelize } from 'sequelize';
import { createGatewayApp } from './app';
import { createProfile, type ProfileDeps } from './sign-in-wiring';
import type { GatewayConfig } from './config';
import { AccountService } from './domain/accounts/account.service';
import { ApiKeyService } from './domain/keys/api-key.service';
import { Site } from './domain/site';
import { KeyAuthenticator } from './domain/keys/key-authenticator';
import { ScannerAuthenticator } from './domain/scanner/scanner-authenticator';
import { ScannerService } from './domain/scanner/scanner.service';
import { AuthFailureGuard } from './domain/limits/auth-failure-guard';
import { RateLimiter } from './domain/limits/rate-limiter';
import { SessionRequestBudget } from './domain/limits/session-budget';
import type { SlidingWindowStore } from './domain/limits/sliding-window';
import { AdmissionGate } from './http/limits/admission';
import { AnswerCache } from './http/proxy/answer-cache';
import { Readiness } from './http/health.routes';
import { createMonitorApp } from './monitor-app';
import { Upstream } from './http/proxy/upstream-proxy';
import { AuditRetention } from './domain/audit/audit-retention';
import { PeriodicPurge } from './domain/sign-in/periodic-purge';
import { linkPurgeTasks } from './store/link.repository';
import { AuthFailureAudit } from './domain/audit/auth-failure-audit';
import { SequelizeGatewayStore } from './store/repositories';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import { RedisRateLimitStore } from './store/redis-rate-limit.store';
import { RedisThrottleStore } from './store/redis-throttle.store';
import { GATEWAY_SCHEMA, gatewayMigrations } from './store/migrations';
import { SignedCollectionsCalls } from './http/workspaces/collections-calls';
import { SearchPolicies } from './domain/workspaces/search-policies';
import { WorkspaceMembership } from './domain/workspaces/workspace-membership';
import { invitationStillPending } from './domain/workspaces/workspace-invitations';
import type { Mailer } from './mail/mailer';
import { MailQuota } from './domain/limits/mail-quota';
import type { AuditLog } from './domain/audit/audit';

export interface RunningService extends CommonRunningService {
  /** the monitoring listener: /metrics and the live /readyz */
  metricsUrl: string;
}

export interface GatewayStartOptions {
  /** the clock of the answer cache and of the search policies kept, in ms (tests move it instead of waiting); Date.now by default */
  now?: () => number;
  /** sends the account mails instead of SMTP_URL's server (tests that hold or read them) */
  mailer?: Mailer;
}

/** Wires the adapters, migrates the `gateway` schema and listens. */
export async function startGateway(
  config: Readonly<GatewayConfig>,
  logger: Logger,
  options: GatewayStartOptions = {},
): Promise<RunningService> {
  const database = await openGatewayDatabase(config, logger);
  const listening = { url: '' };
  const wired = await wireShared(config, logger, options, database, listening);
  const { store, windows, upstreams, auditing } = wired;
  const profile = buildProfile(wired);
  const linkPurge = startLinkPurge(profile, config, logger);
  const rateLimiter = new RateLimiter({ limits: config.rateLimits, store: windows.rateStore });
  const metrics = createServiceMetrics('gateway');
  const readiness = gatewayReadiness(store, upstreams);
  const app = buildGatewayApp(wired, { profile, rateLimiter, metrics, readiness });
  const { http, monitor } = await listenGateway(app, config, logger, { metrics, readiness });
  listening.url = http.url;
  return {
    port: http.port,
    url: http.url,
    metricsUrl: monitor.url,
    async close() {
      await http.drain();
      await monitor.drain();
      await Promise.all([
        upstreams.catalog.close(),
        upstreams.collections.close(),
        rateLimiter.close(),
        windows.throttleStore?.close(),
        auditing.retention.stop(),
        linkPurge.stop(),
        auditing.failureAudit.stop(),
      ]);
      profile.mailer?.close();
      await database.close();
    },
  };
}

/**
 * The store, the audit trail, the shared windows and the upstreams, and what several pieces use of them.
 * `listening.url` is this listener's address once it is known (port 0 in tests).
 */
async function wireShared(
  config: Readonly<GatewayConfig>,
  logger: Logger,
  options: GatewayStartOptions,
  database: { sequelize: Sequelize; keys: SigningKeySource },
  listening: { url: string },
): Promise<Wired> {
  const store = new SequelizeGatewayStore(database.sequelize);
  const auditing = startAuditing(store, config, logger);
  const windows = await connectWindowStores(config, logger);
  const upstreams = connectUpstreams(config, logger);
  const gate = new AdmissionGate(config.admission);
  const signer = new PrincipalSigner({ keys: database.keys });
  const authenticator = new KeyAuthenticator({ keys: store.repos.keys, logger, cacheTtlMs: config.keyCacheTtlMs });
  return {
    config,
    logger,
    options,
    sequelize: database.sequelize,
    store,
    auditing,
    windows,
    upstreams,
    // The public URL, or this listener's own address once it is known (port 0 in tests).
    site: new Site(() => config.publicUrl ?? listening.url),
    gate,
    signer,
    collectionsCalls: new SignedCollectionsCalls({ upstreams, signer, admission: gate }),
    authenticator,
    keys: new ApiKeyService({ store, authenticator, policy: config.keyPolicy }),
    authFailures: new AuthFailureGuard({ store: windows.rateStore, limit: config.authFailuresPerMinute }),
  };
}

/** What the pieces below are built from: the config, the opened adapters and the few services several pieces share. */
interface Wired {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  options: GatewayStartOptions;
  sequelize: Sequelize;
  store: SequelizeGatewayStore;
  auditing: Auditing;
  windows: WindowStores;
  upstreams: Upstreams;
  site: Site;
  gate: AdmissionGate;
  signer: PrincipalSigner;
  collectionsCalls: SignedCollectionsCalls;
  authenticator: KeyAuthenticator;
  keys: ApiKeyService;
  authFailures: AuthFailureGuard;
}

type Upstreams = { catalog: Upstream; collections: Upstream };

function openGatewayDatabase(config: Readonly<GatewayConfig>, logger: Logger) {
  return openKeysAndDatabase({
    name: 'gateway',
    config,
    // The only process that holds a signing key; read again while running, so a rotation needs no restart.
    keyFile: { variable: 'PRINCIPAL_SIGNING_KEY_FILE', path: config.principalSigningKeyFile, open: openSigningKeyFile },
    schema: GATEWAY_SCHEMA,
    migrations: gatewayMigrations,
    logger,
  });
}

interface Auditing {
  audit: AuditLog;
  failureAudit: AuthFailureAudit;
  retention: AuditRetention;
}

/** The audit trail, its batched failure records and its retention pass, started. */
function startAuditing(store: SequelizeGatewayStore, config: Readonly<GatewayConfig>, logger: Logger): Auditing {
  const audit = store.repos.audit;
  const failureAudit = new AuthFailureAudit({ audit, logger, flushMs: config.audit.failureFlushMs });
  failureAudit.start();
  const retention = new AuditRetention({
    audit,
    logger,
    retentionDays: config.audit.retentionDays,
    intervalMs: config.audit.pruneIntervalMs,
  });
  if (config.audit.pruneIntervalMs > 0) retention.start();
  return { audit, failureAudit, retention };
}

interface WindowStores {
  rateStore: SlidingWindowStore;
  throttleStore?: RedisThrottleStore;
}

/**
 * One store for the rate limits, the failure budget, the session budget and the mail quotas (their keys differ):
 * per replica in memory, or shared through Redis. The account throttles likewise: shared through Redis so N
 * replicas allow the limits once, not N times.
 */
async function connectWindowStores(config: Readonly<GatewayConfig>, logger: Logger): Promise<WindowStores> {
  if (!config.redisUrl) return { rateStore: new MemoryRateLimitStore() };
  const rateStore = new RedisRateLimitStore({ url: config.redisUrl, logger });
  await rateStore.connect();
  const throttleStore = new RedisThrottleStore({ url: config.redisUrl, logger });
  await throttleStore.connect();
  return { rateStore, throttleStore };
}

function connectUpstreams(config: Readonly<GatewayConfig>, logger: Logger): Upstreams {
  // As many connections as requests admitted: an admitted request never waits for one.
  const connections = config.admission.reads + config.admission.writes;
  const timeoutMs = config.upstreamTimeoutMs;
  return {
    catalog: new Upstream({ name: 'catalog-service', url: config.catalogUrl, timeoutMs, connections, logger }),
    collections: new Upstream({
      name: 'collections-service',
      url: config.collectionsUrl,
      timeoutMs,
      connections,
      logger,
    }),
  };
}

/** Sessions, sign-in and sign-up, links, OpenID Connect and mail (sign-in-wiring.ts). */
function buildProfile(w: Wired): ProfileDeps {
  const { config, windows, auditing, collectionsCalls } = w;
  return createProfile({
    sequelize: w.sequelize,
    accounts: w.store.repos.accounts,
    keys: w.keys,
    site: w.site,
    logger: w.logger,
    // docs/configuration.md SIGNUP_MODE: open sign-up on a loopback address, invitations elsewhere, unless the operator says.
    signUpMode:
      config.signUpMode ??
      (config.publicUrl === undefined || new Site(() => config.publicUrl ?? '').plainLoopback ? 'open' : 'invite'),
    session: config.session,
    oidc: config.oidc,
    mail: config.mail,
    mailer: w.options.mailer,
    mailQuota: new MailQuota({ store: windows.rateStore, limits: config.mailQuota }),
    consoleDir: config.consoleDir,
    throttle: config.signInThrottle,
    ...(windows.throttleStore ? { throttleStore: windows.throttleStore } : {}),
    hashing: config.hashing,
    authFailures: w.authFailures,
    ...(config.sessionRequestsPerMinute
      ? {
          sessionBudget: new SessionRequestBudget({ store: windows.rateStore, limit: config.sessionRequestsPerMinute }),
        }
      : {}),
    audit: auditing.audit,
    failureAudit: auditing.failureAudit,
    workspaceInvitationPending: (invitationId, requestId) =>
      invitationStillPending(collectionsCalls, invitationId, requestId),
    workspaces: new WorkspaceMembership(collectionsCalls),
  });
}

/** Expired links and abandoned sign-in flows would otherwise pile up, one row per request. */
function startLinkPurge(profile: ProfileDeps, config: Readonly<GatewayConfig>, logger: Logger): PeriodicPurge {
  const linkPurge = new PeriodicPurge({
    tasks: linkPurgeTasks(profile.links),
    logger,
    intervalMs: config.linkPurgeIntervalMs,
  });
  if (config.linkPurgeIntervalMs > 0) linkPurge.start();
  return linkPurge;
}

function gatewayReadiness(store: SequelizeGatewayStore, upstreams: Upstreams): Readiness {
  return new Readiness({
    checks: [
      { name: 'database', health: () => store.repos.accounts.ping().then(() => ({ ok: true })) },
      { name: upstreams.catalog.name, health: async () => ({ ok: await upstreams.catalog.healthy() }) },
      { name: upstreams.collections.name, health: async () => ({ ok: await upstreams.collections.healthy() }) },
    ],
  });
}

interface Monitoring {
  metrics: ServiceMetrics;
  readiness: Readiness;
}

function buildGatewayApp(w: Wired, built: Monitoring & { profile: ProfileDeps; rateLimiter: RateLimiter }) {
  const { config, options, store, authenticator, collectionsCalls, profile } = { ...w, ...built };
  const scannerAuthenticator = new ScannerAuthenticator({
    scanners: store.repos.scanners,
    cacheTtlMs: config.keyCacheTtlMs,
  });
  return createGatewayApp({
    logger: w.logger,
    adminToken: config.adminToken,
    authenticator,
    accounts: new AccountService(store, authenticator),
    keys: w.keys,
    scannerAuthenticator,
    scanners: new ScannerService({ store, authenticator: scannerAuthenticator }),
    profile,
    audit: w.auditing.audit,
    failureAudit: w.auditing.failureAudit,
    signer: w.signer,
    upstreams: w.upstreams,
    collections: collectionsCalls,
    admission: w.gate,
    rateLimiter: built.rateLimiter,
    authFailures: w.authFailures,
    trustProxy: config.trustProxy,
    // Search answers are at most ~100 kB (50 items): 1,000 of them stay well under this budget.
    answerCache: new AnswerCache({ ...config.answerCache, maxBytes: 64 * 1024 * 1024, now: options.now }),
    searchPolicies: new SearchPolicies({ calls: collectionsCalls, now: options.now }),
    metrics: built.metrics,
    readiness: built.readiness,
    hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
  });
}

/** The public edge and the monitoring listener. */
async function listenGateway(
  app: Express,
  config: Readonly<GatewayConfig>,
  logger: Logger,
  { metrics, readiness }: Monitoring,
) {
  // The public edge: a client that trickles its headers or body is cut off (408) after a bounded time.
  const http = await listen(app, {
    port: config.port,
    host: config.host,
    timeouts: { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs },
  });
  // scrapes and probes need no grace: the monitor stops at once
  const monitor = await listen(createMonitorApp({ logger, metrics, readiness }), {
    port: config.metricsPort,
    host: config.host,
    graceMs: 0,
  });
  logger.info({ port: http.port, metricsPort: monitor.port, host: config.host }, 'gateway listening');
  return { http, monitor };
}
