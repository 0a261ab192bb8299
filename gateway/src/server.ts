import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { PrincipalSigner, createHttpServer, createSequelize, runMigrations, type Logger } from '@skills/common';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';
import { AccountService } from './domain/account.service';
import { KeyAuthenticator } from './domain/key-authenticator';
import { RateLimiter, type RateLimitStore } from './domain/rate-limiter';
import { AnswerCache } from './http/answer-cache';
import { Upstream } from './http/upstream-proxy';
import { SequelizeAccountRepository } from './store/account.repository';
import { SequelizeKeyStore } from './store/api-key.store';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import { RedisRateLimitStore } from './store/redis-rate-limit.store';
import { GATEWAY_SCHEMA, gatewayMigrations } from './store/migrations';

export interface RunningService {
  port: number;
  url: string;
  /** stops accepting, lets in-flight requests finish, then releases pools */
  close(): Promise<void>;
}

export interface GatewayStartOptions {
  /** the answer cache's clock, in ms (tests move it instead of waiting); Date.now by default */
  now?: () => number;
}

/** Wires the adapters, migrates the `gateway` schema and listens. */
export async function startGateway(config: Readonly<GatewayConfig>, logger: Logger, options: GatewayStartOptions = {}): Promise<RunningService> {
  const sequelize = createSequelize({ url: config.databaseUrl, poolMax: config.dbPoolMax, logger, applicationName: 'gateway' });
  await runMigrations(sequelize, GATEWAY_SCHEMA, gatewayMigrations, logger);
  const accountRepository = new SequelizeAccountRepository(sequelize);
  const authenticator = new KeyAuthenticator({ keys: new SequelizeKeyStore(sequelize), logger, cacheTtlMs: config.keyCacheTtlMs });
  const upstreams = {
    catalog: new Upstream({ name: 'catalog-service', url: config.catalogUrl, timeoutMs: config.upstreamTimeoutMs, logger }),
    collections: new Upstream({ name: 'collections-service', url: config.collectionsUrl, timeoutMs: config.upstreamTimeoutMs, logger }),
  };
  let rateStore: RateLimitStore = new MemoryRateLimitStore();
  if (config.redisUrl) {
    const shared = new RedisRateLimitStore({ url: config.redisUrl, logger });
    await shared.connect();
    rateStore = shared;
  }
  const rateLimiter = new RateLimiter({ limits: config.rateLimits, store: rateStore });
  const app = createGatewayApp({
    logger,
    adminToken: config.adminToken,
    authenticator,
    accounts: new AccountService(accountRepository, new SequelizeKeyStore(sequelize), authenticator),
    signer: new PrincipalSigner({ secret: config.principalSecret }),
    upstreams,
    rateLimiter,
    // Search answers are at most ~100 kB (50 items): 1,000 of them stay well under this budget.
    answerCache: new AnswerCache({ ...config.answerCache, maxBytes: 64 * 1024 * 1024, now: options.now }),
    readiness: [
      { name: 'database', ready: () => accountRepository.ping().then(() => true) },
      { name: upstreams.catalog.name, ready: () => upstreams.catalog.healthy() },
      { name: upstreams.collections.name, ready: () => upstreams.collections.healthy() },
    ],
  });
  // The public edge: a client that trickles its headers or body is cut off (408) after a bounded time.
  const server = createHttpServer(app, { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs }).listen(
    config.port,
  );
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'gateway listening');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get a grace period; a stuck client must not block shutdown.
      const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
      await closed;
      clearTimeout(force);
      await Promise.all([upstreams.catalog.close(), upstreams.collections.close(), rateLimiter.close()]);
      await sequelize.close();
    },
  };
}
