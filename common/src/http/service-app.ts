import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { accessLog } from './access-log';
import { EventLoopDelayWatch, shedWhileLate, type EventLoopShedding } from './event-loop-shedding';
import { httpMetrics, metricsEndpoint, type ServiceMetrics } from './metrics';
import { requestContext } from './request-context';

/**
 * The start every service app shares: no framework banner, no express ETags
 * (the gateway computes strong ones over the final body), the request id and
 * language first, then the access log and, when given, request metrics with
 * their `GET /metrics` (unless `serveMetrics` is false), then, when given,
 * shedding while the event loop is late (measured, so a shed 503 counts).
 */
export function createServiceApp(deps: {
  logger: Logger;
  metrics?: ServiceMetrics;
  serveMetrics?: boolean;
  shedding?: EventLoopShedding;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext());
  // A layer only where it logs: a disabled one would still be walked by every request.
  if (deps.logger.isLevelEnabled('debug')) app.use(accessLog(deps.logger));
  if (deps.metrics) {
    app.use(httpMetrics(deps.metrics));
    // The gateway measures here but serves the figures on its monitoring listener only.
    if (deps.serveMetrics !== false) app.get('/metrics', metricsEndpoint(deps.metrics));
  }
  if (deps.shedding && deps.shedding.maxDelayMs > 0) app.use(shedWhileLate(new EventLoopDelayWatch(deps.shedding)));
  return app;
}
