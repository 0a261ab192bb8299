import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AuthenticationError, NotAllowedError, PrincipalExpiredError } from '../errors';
import {
  PRINCIPAL_EXPIRED_HEADER,
  PRINCIPAL_HEADER,
  PrincipalVerificationError,
  type Principal,
  type PrincipalVerifier,
  type SignedBody,
} from '../principal';
import { contextOf } from './request-context';

/** The verified caller of the current request (set by `requirePrincipal`). */
export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}

/**
 * The body the current request's principal was signed for (set by
 * `requirePrincipal`); undefined where no principal is required (the gateway).
 * jsonBody checks the bytes it reads against it.
 */
export function signedBodyOf(res: Response): SignedBody | undefined {
  return res.locals.signedBody as SignedBody | undefined;
}

/** The account id of an account principal; admin principals are refused. */
export function accountOf(res: Response): { accountId: string; plan: string } {
  const p = principalOf(res);
  if (p.kind !== 'account') throw new NotAllowedError('auth.planWithoutApi');
  return p;
}

/**
 * Services accept only requests the gateway signed for this very method,
 * path and body; anything else (direct calls, forged, expired or replayed
 * headers, another body) is a 401, logged at warn with the reason so probing
 * shows up in logs. An expired header is the one exception: a valid request
 * that waited too long, answered 503 with PRINCIPAL_EXPIRED_HEADER so the
 * gateway can re-sign it, never a 401 that a client would take for a bad key.
 */
export function requirePrincipal(verifier: PrincipalVerifier, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    verifier.verify(req.get(PRINCIPAL_HEADER), req.method, req.originalUrl).then(
      (verified) => {
        res.locals.principal = verified.principal;
        res.locals.signedBody = verified.body;
        next();
      },
      (err: unknown) => next(principalRejected(err, res, logger)),
    );
  };
}

/** The 401 for a refused principal (logged with its reason), the 503 for an expired one, or `err` itself when it is something else. */
export function principalRejected(err: unknown, res: Response, logger: Logger): unknown {
  if (!(err instanceof PrincipalVerificationError)) return err;
  logger.warn({ requestId: contextOf(res).requestId, reason: err.reason }, 'principal rejected');
  if (err.reason === 'expired') {
    return new PrincipalExpiredError(
      'principal.expired',
      {},
      { cause: err, headers: { [PRINCIPAL_EXPIRED_HEADER]: '1', 'Retry-After': '1' } },
    );
  }
  return new AuthenticationError('auth.invalidPrincipal', {}, { cause: err });
}

/** For `/admin/v1` routes of a service: only the gateway's admin principal. */
export function requireAdmin() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    next(principalOf(res).kind === 'admin' ? undefined : new NotAllowedError('auth.invalidAdminToken'));
  };
}
