/** `GET /admin/v1/audit-events`: the audit trail, newest first, a page at a time (behind requireAdminToken). */
import { Router, type Request, type Response } from 'express';
import { methodNotAllowed, validate } from '@skills/common';
import { type AuditLog } from '../../domain/audit/audit';
import { auditQuerySchema } from './audit.schemas';

export function auditRoutes(audit: AuditLog): Router {
  const router = Router();
  router
    .route('/admin/v1/audit-events')
    .get(async (req: Request, res: Response) => {
      const query = validate(auditQuerySchema, req.query);
      const events = await audit.list(query);
      const nextBefore = events.length === query.limit ? (events.at(-1)?.id ?? null) : null;
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { events, nextBefore } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
