import { Router, type Request, type Response } from 'express';
import { ServiceUnavailableError, type Health, type Logger } from '@skills/common';

export interface ReadinessCheck {
  /** what the 503 names when this check fails */
  name: string;
  health(): Promise<Health>;
}

/**
 * /healthz: the process answers. /readyz: the search engine and the event
 * log answer too; the 503 names which, and the log line says why.
 */
export function healthRoutes(checks: readonly ReadinessCheck[], logger: Logger): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/readyz', async (_req: Request, res: Response) => {
    const results = await Promise.all(
      checks.map(async (c) => ({ name: c.name, health: await c.health().catch((err: Error) => ({ ok: false, reason: err.message })) })),
    );
    const failing = results.filter((r) => !r.health.ok);
    if (failing.length > 0) {
      logger.warn({ failing: failing.map((f) => ({ name: f.name, reason: f.health.reason })) }, 'not ready');
      throw new ServiceUnavailableError('health.notReady', { reason: failing.map((f) => f.name).join(', ') });
    }
    res.json({ data: { status: 'ready' } });
  });
  return router;
}
