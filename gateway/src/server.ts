import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { PrincipalSigner, createHttpServer, createSequelize, createServiceMetrics, loopbackOf, runMigrations, type Logger } from '@skills/common';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';
import { AccountService } from './domain/account.service';
import { KeyAuthenticator } from './domain/key-authenticator';
import { AuthFailureGuard } from './domain/auth-failure-guard';
import { RateLimiter } from './domain/rate-limiter';
import type { SlidingWindowStore } from './domain/sliding-window';
import { AnswerCache } from './http/answer-cache';
import { Readiness } from './http/health.routes';
import { createMonitorApp } from './monitor-app';
import { Upstream } from './http/upstream-proxy';
import { AuditRetention } from './domain/audit-retention';
import { AuthFailureAudit } from './domain/auth-failure-audit';
import { SequelizeGatewayStore } from './store/gateway-store';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import { RedisRateLimitStore } from './store/redis-rate-limit.store';
import { GATEWAY_SCHEMA, gatewayMigrations } from './store/migrations';

export interface RunningService {
  port: number;
  url: string;
  /** the monitoring listener: /metrics and the live /readyz */
  metricsUrl: string;
  /** stops accepting, lets in-flight requests finish, then releases pools */
  close(): Promise<void>;
}

/** Listens on `host:port` (0: a free port) and answers the port taken. */
async function listen(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Wires the adapters, migrates the `gateway` schema and listens. */
export async function startGateway(config: Readonly<GatewayConfig>, logger: Logger): Promise<RunningService> {
  const sequelize = createSequelize({ url: config.databaseUrl, poolMax: config.dbPoolMax, logger, applicationName: 'gateway' });
  await runMigrations(sequelize, GATEWAY_SCHEMA, gatewayMigrations, logger);
  const store = new SequelizeGatewayStore(sequelize);
  const authenticator = new KeyAuthenticator({ keys: store.repos.keys, logger, cacheTtlMs: config.keyCacheTtlMs });
  const audit = store.repos.audit;
  const failureAudit = new AuthFailureAudit({ audit, logger, flushMs: config.audit.failureFlushMs });
  failureAudit.start();
  const retention = new AuditRetention({ audit, logger, retentionDays: config.audit.retentionDays, intervalMs: config.audit.pruneIntervalMs });
  if (config.audit.pruneIntervalMs > 0) retention.start();
  const upstreams = {
    catalog: new Upstream({ name: 'catalog-service', url: config.catalogUrl, timeoutMs: config.upstreamTimeoutMs, logger }),
    collections: new Upstream({ name: 'collections-service', url: config.collectionsUrl, timeoutMs: config.upstreamTimeoutMs, logger }),
  };
  // One store for both budgets (their keys differ): per replica in memory, or shared through Redis.
  let rateStore: SlidingWindowStore = new MemoryRateLimitStore();
  if (config.redisUrl) {
    const shared = new RedisRateLimitStore({ url: config.redisUrl, logger });
    await shared.connect();
    rateStore = shared;
  }
  const rateLimiter = new RateLimiter({ limits: config.rateLimits, store: rateStore });
  const authFailures = new AuthFailureGuard({ store: rateStore, limit: config.authFailuresPerMinute });
  const metrics = createServiceMetrics('gateway');
  const readiness = new Readiness({
    checks: [
      { name: 'database', ready: () => store.repos.accounts.ping().then(() => true) },
      { name: upstreams.catalog.name, ready: () => upstreams.catalog.healthy() },
      { name: upstreams.collections.name, ready: () => upstreams.collections.healthy() },
    ],
  });
  const app = createGatewayApp({
    logger,
    adminToken: config.adminToken,
    authenticator,
    accounts: new AccountService(store, authenticator),
    audit,
    failureAudit,
    signer: new PrincipalSigner({ secret: config.principalSecret }),
    upstreams,
    rateLimiter,
    authFailures,
    trustProxy: config.trustProxy,
    // Search answers are at most ~100 kB (50 items): 1,000 of them stay well under this budget.
    answerCache: new AnswerCache({ ...config.answerCache, maxBytes: 64 * 1024 * 1024 }),
    metrics,
    readiness,
    hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
  });
  // The public edge: a client that trickles its headers or body is cut off (408) after a bounded time.
  const server = createHttpServer(app, { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs });
  const port = await listen(server, config.port, config.host);
  const monitor = createHttpServer(createMonitorApp({ logger, metrics, readiness }));
  const metricsPort = await listen(monitor, config.metricsPort, config.host);
  logger.info({ port, metricsPort, host: config.host }, 'gateway listening');
  const host = loopbackOf(config.host);
  return {
    port,
    url: `http://${host}:${port}`,
    metricsUrl: `http://${host}:${metricsPort}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get a grace period; a stuck client must not block shutdown.
      const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
      await closed;
      clearTimeout(force);
      monitor.closeAllConnections();
      await new Promise<void>((resolve) => monitor.close(() => resolve()));
      await Promise.all([upstreams.catalog.close(), upstreams.collections.close(), rateLimiter.close(), retention.stop(), failureAudit.stop()]);
      await sequelize.close();
    },
  };
}
