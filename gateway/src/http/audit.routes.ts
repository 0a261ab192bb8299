/** `GET /admin/v1/audit-events`: the audit trail, newest first, a page at a time (behind requireAdminToken). */
import { Router, type Request, type Response } from 'express';
import Joi from 'joi';
import { methodNotAllowed, validate } from '@skills/common';
import { AUDIT_ACTIONS, type AuditLog, type AuditQuery } from '../domain/audit';

const querySchema = Joi.object<AuditQuery>({
  action: Joi.string().valid(...AUDIT_ACTIONS),
  accountId: Joi.string().guid(),
  // the id of the last record of the previous page
  before: Joi.string().pattern(/^[1-9]\d{0,18}$/),
  limit: Joi.number().integer().min(1).max(500).default(100),
});

export function auditRoutes(audit: AuditLog): Router {
  const router = Router();
  router
    .route('/admin/v1/audit-events')
    .get(async (req: Request, res: Response) => {
      const query = validate(querySchema, req.query);
      const events = await audit.list(query);
      const nextBefore = events.length === query.limit ? (events.at(-1)?.id ?? null) : null;
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { events, nextBefore } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
