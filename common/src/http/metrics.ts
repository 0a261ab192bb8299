import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Services add their own gauges and counters through these, so only common depends on prom-client. */
export { Counter, Gauge } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
}

/**
 * One registry per service process (not the global default, so the
 * standalone launcher can host three services in one process). Services add
 * their own gauges (event-log lag, outbox depth, key-cache hits) to it.
 */
export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

/**
 * Counts and times every request by its route *template* (never the raw
 * path: ids would explode the label space).
 */
export function httpMetrics(metrics: ServiceMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const template = req.route?.path as string | undefined;
      const route = template === undefined ? 'unmatched' : `${req.baseUrl}${template}`;
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}

/** `GET /metrics` in the Prometheus text format. */
export function metricsEndpoint(metrics: ServiceMetrics) {
  return async (_req: Request, res: Response): Promise<void> => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  };
}
