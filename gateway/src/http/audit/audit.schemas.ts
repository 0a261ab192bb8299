/** The query of the audit trail (audit.routes.ts). */
import Joi from 'joi';
import { AUDIT_ACTIONS, type AuditQuery } from '../../domain/audit/audit';

export const auditQuerySchema = Joi.object<AuditQuery>({
  action: Joi.string().valid(...AUDIT_ACTIONS),
  accountId: Joi.string().guid(),
  // the id of the last record of the previous page
  before: Joi.string().pattern(/^[1-9]\d{0,18}$/),
  limit: Joi.number().integer().min(1).max(500).default(100),
});
