import type { Express } from 'express';
import {
  Counter,
  createServiceApp,
  createServiceMetrics,
  errorHandler,
  notFoundHandler,
  type Logger,
  type PrincipalSigner,
  type ServiceMetrics,
} from '@skills/common';
import type { AccountService } from './domain/account.service';
import type { KeyAuthenticator } from './domain/key-authenticator';
import type { RateLimiter } from './domain/rate-limiter';
import { requireAdminToken } from './http/admin-auth';
import { adminRoutes } from './http/admin.routes';
import { healthRoutes, type ReadinessCheck } from './http/health.routes';
import { proxyRoutes } from './http/proxy.routes';
import { openApiRoutes } from './openapi/openapi.routes';
import type { UpstreamName } from './http/route-table';
import type { Upstream } from './http/upstream-proxy';

export interface GatewayDeps {
  logger: Logger;
  adminToken: string;
  authenticator: KeyAuthenticator;
  accounts: AccountService;
  signer: PrincipalSigner;
  upstreams: Record<UpstreamName, Upstream>;
  /** per-key budget of /api/v1 calls; none means unlimited */
  rateLimiter?: RateLimiter;
  /** request counts and latencies served at GET /metrics; a fresh registry when absent */
  metrics?: ServiceMetrics;
  /** what /readyz asks besides the process itself */
  readiness: readonly ReadinessCheck[];
}

/** The public entry: health, the admin API, then the proxied routes. */
export function createGatewayApp(deps: GatewayDeps): Express {
  const metrics = deps.metrics ?? createServiceMetrics('gateway');
  registerKeyCacheMetrics(metrics, deps.authenticator);
  const app = createServiceApp({ logger: deps.logger, metrics });
  app.use(healthRoutes(deps.readiness));
  // The contract and its docs page are public: mounted before any credential check.
  app.use(openApiRoutes());
  app.use('/admin/v1', requireAdminToken(deps.adminToken));
  app.use(adminRoutes(deps.accounts));
  app.use(proxyRoutes(deps));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}

/** Counts read at scrape time from the authenticator, which knows nothing of Prometheus. */
function registerKeyCacheMetrics(metrics: ServiceMetrics, authenticator: KeyAuthenticator): void {
  new Counter({
    name: 'skills_key_cache_lookups_total',
    help: 'API key lookups answered from the key cache (hit) or the database (miss)',
    labelNames: ['result'],
    registers: [metrics.registry],
    collect() {
      const { hits, misses } = authenticator.cacheStats();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
}
