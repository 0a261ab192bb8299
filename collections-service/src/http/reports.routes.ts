/**
 * `POST /api/v1/skills/:slug/reports` (an account reports an item) and
 * `/admin/v1/reports...` (operators list, resolve and dismiss them).
 */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { ReportOutcome } from '../domain/report';
import type { ReportService } from '../domain/report.service';
import { fileReportSchema, handleReportSchema, reportsQuerySchema } from './report.schemas';
import { reportView } from './views';

export function reportsRoutes(service: ReportService): Router {
  const router = Router();

  router
    .route('/api/v1/skills/:slug/reports')
    .post(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const body = validate(fileReportSchema, req.body ?? {});
      const report = await service.file(accountId, req.params.slug, body);
      res.status(201).json({ data: { report: reportView(report) } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/reports')
    .get(async (req, res) => {
      const { status, ...page } = validate(reportsQuerySchema, req.query);
      const { reports, total } = await service.list(status, page);
      res.json({ data: { reports: reports.map(reportView), pagination: paginationOf(page, total) } });
    })
    .all(methodNotAllowed(['GET']));

  // "\\:" — the colon is literal here, not a route parameter (as in /admin/v1/skills:import).
  const outcomes: Array<[string, ReportOutcome]> = [
    ['/admin/v1/reports/:id\\:resolve', 'resolved'],
    ['/admin/v1/reports/:id\\:dismiss', 'dismissed'],
  ];
  for (const [path, outcome] of outcomes) {
    router
      .route(path)
      .post(jsonBody(), async (req, res) => {
        const { note } = validate(handleReportSchema, req.body ?? {});
        const report = await service.handle(String(req.params.id), outcome, note);
        res.json({ data: { report: reportView(report) } });
      })
      .all(methodNotAllowed(['POST']));
  }

  return router;
}
