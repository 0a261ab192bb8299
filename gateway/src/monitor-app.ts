/**
 * The gateway's monitoring listener (METRICS_PORT): `/metrics` for
 * Prometheus and the live `/readyz` for probes and operators. It listens on
 * a port of its own that no Service routes from the Ingress, so traffic
 * figures and heap sizes are not public and a deep check (a database query
 * and two upstream calls) cannot be triggered from the internet.
 */
import express, { type Express } from 'express';
import {
  errorHandler,
  metricsEndpoint,
  notFoundHandler,
  requestContext,
  type Logger,
  type ServiceMetrics,
} from '@skills/common';
import { deepHealthRoutes, type Readiness } from './http/health.routes';

export function createMonitorApp(deps: { logger: Logger; metrics: ServiceMetrics; readiness: Readiness }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext());
  app.get('/metrics', metricsEndpoint(deps.metrics));
  app.use(deepHealthRoutes(deps.readiness));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
