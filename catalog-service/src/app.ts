/**
 * Builds the catalog-service express app from its dependencies; no env, no
 * globals, so tests and the standalone launcher wire it as they need.
 */
import type { Express } from 'express';
import {
  createServiceApp,
  errorHandler,
  failingChecks,
  healthRouter,
  notFoundHandler,
  requireAdmin,
  requirePrincipal,
  type EventLog,
  type EventLoopShedding,
  type Logger,
  type ReadinessCheck,
  type PrincipalVerifier,
  type ServiceMetrics,
} from '@skills/common';
import type { TrustDefaults } from './domain/search-request';
import type { SearchEngine } from './engines/search-engine';
import { reindexRoutes } from './http/reindex.routes';
import { skillsRoutes } from './http/skills.routes';
import type { ReindexJobs } from './reindex/reindex.job';

export interface CatalogAppDeps {
  engine: SearchEngine;
  /** asked by /readyz; absent when this process runs no indexer */
  eventLog?: EventLog;
  /** verifies the gateway's signed principal header */
  verifier: PrincipalVerifier;
  logger: Logger;
  /** when given, requests are measured and GET /metrics serves them */
  metrics?: ServiceMetrics;
  /** when given, requests are shed while the event loop is late */
  shedding?: EventLoopShedding;
  /** what a search shows without `trust=` (SEARCH_SHOWS_UNSCANNED); unscanned items shown when absent */
  trust?: TrustDefaults;
  /** when given, `/admin/v1/reindex` rebuilds the read model (admin principal only) */
  reindex?: ReindexJobs;
}

export function createCatalogApp(deps: CatalogAppDeps): Express {
  const app = createServiceApp({ logger: deps.logger, metrics: deps.metrics, shedding: deps.shedding });
  const { engine, eventLog } = deps;
  const checks: ReadinessCheck[] = [{ name: 'search engine', health: () => engine.health() }];
  if (eventLog) checks.push({ name: 'event log', health: () => eventLog.health() });

  // Nothing under these paths answers without a principal the gateway signed for this request.
  app.use(['/api/v1', '/admin/v1'], requirePrincipal(deps.verifier, deps.logger));
  app.use('/admin/v1', requireAdmin());
  // Search first: it is nearly all the traffic, and the probes' paths are disjoint from it.
  app.use(skillsRoutes(deps.engine, deps.trust ?? { showsUnscanned: true }));
  if (deps.reindex) app.use(reindexRoutes(deps.reindex));
  app.use(healthRouter({ failing: () => failingChecks(checks, deps.logger), nameFailing: true }));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
