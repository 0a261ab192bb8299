/** Liveness and readiness probes; no principal, they carry no data. */
import { Router } from 'express';
import { ServiceUnavailableError, methodNotAllowed, type Logger } from '@skills/common';
import type { CollectionsStore } from '../domain/ports';

/** /healthz: the process answers. /readyz: the database answers too; the 503 names it, the log says why. */
export function healthRoutes(store: CollectionsStore, logger: Logger): Router {
  const router = Router();
  router
    .route('/healthz')
    .get((_req, res) => {
      res.json({ data: { status: 'ok' } });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/readyz')
    .get(async (_req, res) => {
      try {
        await store.ping();
      } catch (err) {
        logger.warn({ err }, 'not ready: database');
        throw new ServiceUnavailableError('health.notReady', { reason: 'database' }, { cause: err });
      }
      res.json({ data: { status: 'ready' } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
