/** Liveness and readiness probes; no principal, they carry no data. */
import { Router } from 'express';
import { ServiceUnavailableError, methodNotAllowed } from '@skills/common';
import type { CollectionsStore } from '../domain/ports';

export function healthRoutes(store: CollectionsStore): Router {
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
        throw new ServiceUnavailableError('upstream.unavailable', {}, { cause: err });
      }
      res.json({ data: { status: 'ready' } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
