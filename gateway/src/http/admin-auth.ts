import type { NextFunction, Request, Response } from 'express';
import { AuthenticationError, contextOf } from '@skills/common';
import type { AuthFailureAudit } from '../domain/audit/auth-failure-audit';
import type { AuthFailureGuard } from '../domain/limits/auth-failure-guard';
import { secretsEqual } from '../domain/keys/api-key';
import { clientAddress, refuseWhileBlocked } from './client-address';

const BEARER = /^Bearer +(\S+)$/i;

/**
 * `/admin/v1` is for operators: `Authorization: Bearer <ADMIN_TOKEN>`,
 * compared in constant time. A wrong or missing token counts against the
 * client's address (`guard`) and goes to the audit trail; an address over
 * its budget gets 429 for anything but the right token.
 */
export function requireAdminToken(adminToken: string, guard?: AuthFailureGuard, failureAudit?: AuthFailureAudit) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    if (token !== undefined && secretsEqual(token, adminToken)) {
      res.locals.adminAuthenticated = true;
      return next();
    }
    const address = clientAddress(req);
    if (guard) await refuseWhileBlocked(guard, address);
    failureAudit?.record(address, 'admin_token', contextOf(res).requestId);
    await guard?.recordFailure(address);
    next(new AuthenticationError('auth.invalidAdminToken'));
  };
}
