/**
 * `/admin/v1/reindex`: start a rebuild of the search read model and poll its
 * progress. Mounted behind the admin principal check (app.ts).
 */
import { Router } from 'express';
import { NotFoundError, methodNotAllowed } from '@skills/common';
import type { ReindexJobs } from '../reindex/reindex.job';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function reindexRoutes(jobs: ReindexJobs): Router {
  const router = Router();

  router
    .route('/admin/v1/reindex')
    // 202: the work goes on after the answer; Location names where to poll
    .post(async (_req, res) => {
      const job = await jobs.start();
      res.status(202).location(`/admin/v1/reindex/${job.id}`).json({ data: { job } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/reindex/:jobId')
    .get(async (req, res) => {
      // a path id that is not a UUID names nothing (docs/architecture.md)
      const job = UUID.test(req.params.jobId) ? await jobs.get(req.params.jobId) : undefined;
      if (!job) throw new NotFoundError('reindex.jobNotFound');
      res.json({ data: { job } });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
