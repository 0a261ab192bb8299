import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AuthenticationError, NotAllowedError } from '../errors';
import { PRINCIPAL_HEADER, PrincipalVerificationError, type Principal, type PrincipalVerifier } from '../principal';
import { contextOf } from './request-context';

/** The verified caller of the current request (set by `requirePrincipal`). */
export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}

/** The account id of an account principal; admin principals are refused. */
export function accountOf(res: Response): { accountId: string; plan: string } {
  const p = principalOf(res);
  if (p.kind !== 'account') throw new NotAllowedError('auth.planWithoutApi');
  return p;
}

/**
 * Services accept only requests the gateway signed for this very method and
 * path; anything else (direct calls, forged, expired or replayed headers) is
 * a 401, logged at warn with the reason so probing shows up in logs.
 */
export function requirePrincipal(verifier: PrincipalVerifier, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      res.locals.principal = verifier.verify(req.get(PRINCIPAL_HEADER), req.method, req.originalUrl);
      next();
    } catch (err) {
      if (!(err instanceof PrincipalVerificationError)) return next(err);
      logger.warn({ requestId: contextOf(res).requestId, reason: err.reason }, 'principal rejected');
      next(new AuthenticationError('auth.invalidPrincipal', {}, { cause: err }));
    }
  };
}

/** For `/admin/v1` routes of a service: only the gateway's admin principal. */
export function requireAdmin() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    next(principalOf(res).kind === 'admin' ? undefined : new NotAllowedError('auth.invalidAdminToken'));
  };
}
