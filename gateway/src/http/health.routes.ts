import { Router, type Request, type Response } from 'express';
import { ServiceUnavailableError } from '@skills/common';

export interface ReadinessCheck {
  /** what the 503 names when this check fails */
  name: string;
  ready(): Promise<boolean>;
}

/** /healthz: the process answers. /readyz: the database and both services answer too. */
export function healthRoutes(checks: readonly ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/readyz', async (_req: Request, res: Response) => {
    const results = await Promise.all(checks.map(async (c) => ((await c.ready().catch(() => false)) ? undefined : c.name)));
    const failing = results.filter((name): name is string => name !== undefined);
    if (failing.length > 0) throw new ServiceUnavailableError('health.notReady', { reason: failing.join(', ') });
    res.json({ data: { status: 'ready' } });
  });
  return router;
}
