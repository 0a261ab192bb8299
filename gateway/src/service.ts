import {
  PrincipalSigner,
  createServiceMetrics,
  listen,
  openKeysAndDatabase,
  openSigningKeyFile,
  type Logger,
  type RunningService as CommonRunningService,
} from '@skills/common';
import { createGatewayApp } from './app';
import { createProfile } from './sign-in-wiring';
import { PROFILE_DEFAULTS, type GatewayConfig } from './config';
import { AccountService } from './domain/account.service';
import { ApiKeyService } from './domain/api-key.service';
import { Site } from './domain/site';
import { KeyAuthenticator } from './domain/key-authenticator';
import { ScannerAuthenticator } from './domain/scanner-authenticator';
import { ScannerService } from './domain/scanner.service';
import { AuthFailureGuard } from './domain/auth-failure-guard';
import { RateLimiter } from './domain/rate-limiter';
import { SessionRequestBudget } from './domain/session-budget';
import type { SlidingWindowStore } from './domain/sliding-window';
import { AdmissionGate, DEFAULT_ADMISSION } from './http/admission';
import { AnswerCache } from './http/answer-cache';
import { Readiness } from './http/health.routes';
import { createMonitorApp } from './monitor-app';
import { Upstream } from './http/upstream-proxy';
import { AuditRetention } from './domain/audit-retention';
import { PeriodicPurge } from './domain/periodic-purge';
import { linkPurgeTasks } from './store/link.repository';
import { AuthFailureAudit } from './domain/auth-failure-audit';
import { SequelizeGatewayStore } from './store/gateway-store';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import { RedisRateLimitStore } from './store/redis-rate-limit.store';
import { RedisThrottleStore } from './store/redis-throttle.store';
import { GATEWAY_SCHEMA, gatewayMigrations } from './store/migrations';
import { SignedCollectionsCalls } from './http/collections-calls';
import { SearchPolicies } from './domain/search-policies';
import { WorkspaceMembership } from './domain/workspace-membership';
import { invitationStillPending } from './domain/workspace-invitations';
import type { Mailer } from './mail/mailer';
import { DEFAULT_MAIL_QUOTA, MailQuota } from './domain/mail-quota';

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
export async function startGateway(config: Readonly<GatewayConfig>, logger: Logger, options: GatewayStartOptions = {}): Promise<RunningService> {
  const database = await openKeysAndDatabase({
    name: 'gateway',
    config,
    // The only process that holds a signing key; read again while running, so a rotation needs no restart.
    keyFile: { variable: 'PRINCIPAL_SIGNING_KEY_FILE', path: config.principalSigningKeyFile, open: openSigningKeyFile },
    schema: GATEWAY_SCHEMA,
    migrations: gatewayMigrations,
    logger,
  });
  const { keys: signingKey, sequelize } = database;
  const store = new SequelizeGatewayStore(sequelize);
  const accountRepository = store.repos.accounts;
  const authenticator = new KeyAuthenticator({ keys: store.repos.keys, logger, cacheTtlMs: config.keyCacheTtlMs });
  const scannerAuthenticator = new ScannerAuthenticator({ scanners: store.repos.scanners, cacheTtlMs: config.keyCacheTtlMs });
  const audit = store.repos.audit;
  const failureAudit = new AuthFailureAudit({ audit, logger, flushMs: config.audit.failureFlushMs });
  failureAudit.start();
  const retention = new AuditRetention({ audit, logger, retentionDays: config.audit.retentionDays, intervalMs: config.audit.pruneIntervalMs });
  if (config.audit.pruneIntervalMs > 0) retention.start();
  const admission = config.admission ?? DEFAULT_ADMISSION;
  // As many connections as requests admitted: an admitted request never waits for one.
  const connections = admission.reads + admission.writes;
  const upstreams = {
    catalog: new Upstream({ name: 'catalog-service', url: config.catalogUrl, timeoutMs: config.upstreamTimeoutMs, connections, logger }),
    collections: new Upstream({ name: 'collections-service', url: config.collectionsUrl, timeoutMs: config.upstreamTimeoutMs, connections, logger }),
  };
  // One store for both budgets (their keys differ): per replica in memory, or shared through Redis.
  let rateStore: SlidingWindowStore = new MemoryRateLimitStore();
  if (config.redisUrl) {
    const shared = new RedisRateLimitStore({ url: config.redisUrl, logger });
    await shared.connect();
    rateStore = shared;
  }
  // The account throttles likewise: shared through Redis so N replicas allow the limits once, not N times.
  let throttleStore: RedisThrottleStore | undefined;
  if (config.redisUrl) {
    throttleStore = new RedisThrottleStore({ url: config.redisUrl, logger });
    await throttleStore.connect();
  }
  const rateLimiter = new RateLimiter({ limits: config.rateLimits, store: rateStore });
  const authFailures = new AuthFailureGuard({ store: rateStore, limit: config.authFailuresPerMinute });
  const mailQuota = new MailQuota({ store: rateStore, limits: config.mailQuota ?? DEFAULT_MAIL_QUOTA });
  const metrics = createServiceMetrics('gateway');
  const readiness = new Readiness({
    checks: [
      { name: 'database', health: () => store.repos.accounts.ping().then(() => ({ ok: true })) },
      { name: upstreams.catalog.name, health: async () => ({ ok: await upstreams.catalog.healthy() }) },
      { name: upstreams.collections.name, health: async () => ({ ok: await upstreams.collections.healthy() }) },
    ],
  });
  const keys = new ApiKeyService({
    store,
    authenticator,
    policy: config.keyPolicy ?? { maxActiveKeys: PROFILE_DEFAULTS.maxActiveKeys, maxLifetimeDays: PROFILE_DEFAULTS.maxKeyLifetimeDays },
  });
  // The public URL, or this listener's own address once it is known (port 0 in tests).
  let listening = '';
  const site = new Site(() => config.publicUrl ?? listening);
  const signer = new PrincipalSigner({ keys: signingKey });
  const gate = new AdmissionGate(admission);
  const collectionsCalls = new SignedCollectionsCalls({ upstreams, signer, admission: gate });
  const profile = createProfile({
    sequelize,
    accounts: accountRepository,
    keys,
    site,
    logger,
    // docs/configuration.md SIGNUP_MODE: open sign-up on a loopback address, invitations elsewhere, unless the operator says.
    signUpMode: config.signUpMode ?? (config.publicUrl === undefined || new Site(() => config.publicUrl ?? '').plainLoopback ? 'open' : 'invite'),
    session: config.session ?? { idleMinutes: PROFILE_DEFAULTS.sessionIdleMinutes, maxAgeHours: PROFILE_DEFAULTS.sessionMaxAgeHours },
    oidc: config.oidc,
    mail: config.mail,
    mailer: options.mailer,
    mailQuota,
    consoleDir: config.consoleDir ?? PROFILE_DEFAULTS.consoleDir,
    throttle: config.signInThrottle,
    ...(throttleStore ? { throttleStore } : {}),
    hashing: config.hashing,
    authFailures,
    ...(config.sessionRequestsPerMinute ? { sessionBudget: new SessionRequestBudget({ store: rateStore, limit: config.sessionRequestsPerMinute }) } : {}),
    audit,
    failureAudit,
    workspaceInvitationPending: (invitationId, requestId) => invitationStillPending(collectionsCalls, invitationId, requestId),
    workspaces: new WorkspaceMembership(collectionsCalls),
  });
  // Expired links and abandoned sign-in flows would otherwise pile up, one row per request.
  const linkPurgeIntervalMs = config.linkPurgeIntervalMs ?? PROFILE_DEFAULTS.linkPurgeIntervalMs;
  const linkPurge = new PeriodicPurge({ tasks: linkPurgeTasks(profile.links), logger, intervalMs: linkPurgeIntervalMs });
  if (linkPurgeIntervalMs > 0) linkPurge.start();
  const app = createGatewayApp({
    logger,
    adminToken: config.adminToken,
    authenticator,
    accounts: new AccountService(store, authenticator),
    keys,
    scannerAuthenticator,
    scanners: new ScannerService({ store, authenticator: scannerAuthenticator }),
    profile,
    audit,
    failureAudit,
    signer,
    upstreams,
    collections: collectionsCalls,
    admission: gate,
    rateLimiter,
    authFailures,
    trustProxy: config.trustProxy,
    // Search answers are at most ~100 kB (50 items): 1,000 of them stay well under this budget.
    answerCache: new AnswerCache({ ...config.answerCache, maxBytes: 64 * 1024 * 1024, now: options.now }),
    searchPolicies: new SearchPolicies({ calls: collectionsCalls, now: options.now }),
    metrics,
    readiness,
    hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
  });
  // The public edge: a client that trickles its headers or body is cut off (408) after a bounded time.
  const http = await listen(app, {
    port: config.port,
    host: config.host,
    timeouts: { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs },
  });
  // scrapes and probes need no grace: the monitor stops at once
  const monitor = await listen(createMonitorApp({ logger, metrics, readiness }), { port: config.metricsPort, host: config.host, graceMs: 0 });
  listening = http.url;
  logger.info({ port: http.port, metricsPort: monitor.port, host: config.host }, 'gateway listening');
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
        throttleStore?.close(),
        retention.stop(),
        linkPurge.stop(),
        failureAudit.stop(),
      ]);
      profile.mailer?.close();
      await database.close();
    },
  };
}
