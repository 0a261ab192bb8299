import type { NextFunction, Request, Response } from 'express';
import { AuthenticationError } from '@skills/common';
import { secretsEqual } from '../domain/api-key';

const BEARER = /^Bearer +(\S+)$/i;

/** `/admin/v1` is for operators: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function requireAdminToken(adminToken: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    if (token === undefined || !secretsEqual(token, adminToken)) return next(new AuthenticationError('auth.invalidAdminToken'));
    res.locals.adminAuthenticated = true;
    next();
  };
}
