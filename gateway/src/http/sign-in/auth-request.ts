/** The request an authentication event comes from, read from express (domain/audit/auth-audit.ts builds the record). */
import type { Request, Response } from 'express';
import { USER_AGENT_MAX, type AuthRequest } from '../../domain/audit/auth-audit';
import { auditContextOf } from '../audit/audit-context';

export function authRequestOf(req: Request, res: Response): AuthRequest {
  const { requestId, clientAddress } = auditContextOf(req, res, { kind: 'anonymous' });
  const userAgent = req.get('user-agent');
  return {
    requestId,
    clientAddress,
    ...(userAgent === undefined ? {} : { userAgent: userAgent.slice(0, USER_AGENT_MAX) }),
  };
}
