/**
 * Who calls a public `/api/v1` operation, for the proxied routes and the
 * gateway's own ones alike: the account of the API key (the operation's
 * scope, the plan, the address's failed-authentication budget) or, without
 * an Authorization header, the account of the console session (CSRF and
 * Origin on writes). Then the account's rate limit, whose RateLimit-*
 * headers go on every answer. A scanner credential never gets here
 * (scanner-gate.ts); scannerAuthenticator authenticates one.
 */
import type { Request, Response } from 'express';
import { AuthenticationError, RateLimitError, contextOf } from '@skills/common';
import type { AuthFailureAudit } from '../../domain/audit/auth-failure-audit';
import type { AuthFailureGuard } from '../../domain/limits/auth-failure-guard';
import type { AccountPrincipal, KeyAuthenticator } from '../../domain/keys/key-authenticator';
import type { RateLimiter } from '../../domain/limits/rate-limiter';
import type { ScannerAuthenticator, ScannerPrincipal } from '../../domain/scanner/scanner-authenticator';
import type { Scope } from '../../domain/keys/scopes';
import type { SessionGate } from '../sessions/session-gate';
import { clientAddress, refuseWhileBlocked } from '../client-address';

export interface CallerAuthDeps {
  authenticator: KeyAuthenticator;
  /** per-account budget of /api/v1 calls; none means unlimited */
  rateLimiter?: RateLimiter;
  /** per-address budget of failed authentications; none means unlimited */
  authFailures?: AuthFailureGuard;
  /** counts failed authentications into the audit trail */
  failureAudit?: AuthFailureAudit;
  /** lets a console session call as its own account (no plan or scope rule; CSRF on writes) */
  sessions?: SessionGate;
  /** scanner credentials (scannerAuthenticator); none: every `sks_` token is refused */
  scanners?: ScannerAuthenticator;
}

export type AuthenticateCaller = (req: Request, res: Response, scope: Scope | undefined) => Promise<AccountPrincipal>;

/** Counts the call against the account's plan budget; the RateLimit-* headers go on every answer. */
async function applyRateLimit(
  limiter: RateLimiter | undefined,
  principal: AccountPrincipal,
  res: Response,
): Promise<void> {
  if (!limiter) return;
  const decision = await limiter.take(principal.accountId, principal.plan);
  if (!decision) return;
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    throw new RateLimitError('rateLimit.exceeded', seconds);
  }
}

export function callerAuthenticator(deps: CallerAuthDeps): AuthenticateCaller {
  /**
   * The key's principal. An address over its failed-authentication budget
   * gets 429 for anything but a key already known good (no store read);
   * a 401 counts against its address.
   */
  async function byKey(req: Request, res: Response, scope: Scope | undefined): Promise<AccountPrincipal> {
    const guard = deps.authFailures;
    const address = clientAddress(req);
    try {
      return await deps.authenticator.authenticate(req.get('authorization'), {
        scope,
        ...(guard ? { beforeUnknown: () => refuseWhileBlocked(guard, address) } : {}),
      });
    } catch (err) {
      if (err instanceof AuthenticationError) {
        deps.failureAudit?.record(address, 'api_key', contextOf(res).requestId);
        await guard?.recordFailure(address);
      }
      throw err;
    }
  }

  return async (req, res, scope) => {
    // An explicit key wins; without one, the console's session cookie may stand for its account.
    const session = req.get('authorization') === undefined ? await deps.sessions?.principalFor(req) : undefined;
    const principal = session ?? (await byKey(req, res, scope));
    await applyRateLimit(deps.rateLimiter, principal, res);
    return principal;
  };
}

export type AuthenticateScanner = (req: Request, res: Response) => Promise<ScannerPrincipal>;

/**
 * The scanner principal of `Bearer sks_…`. Failures count like a bad API
 * key's: against the address's budget (429 over it, for anything but a
 * token already known good) and into the audit trail.
 */
export function scannerAuthenticator(
  deps: Pick<CallerAuthDeps, 'scanners' | 'authFailures' | 'failureAudit'>,
): AuthenticateScanner {
  return async (req, res) => {
    const guard = deps.authFailures;
    const address = clientAddress(req);
    try {
      if (!deps.scanners) throw new AuthenticationError('auth.invalidScannerToken');
      return await deps.scanners.authenticate(
        req.get('authorization'),
        guard ? { beforeUnknown: () => refuseWhileBlocked(guard, address) } : {},
      );
    } catch (err) {
      if (err instanceof AuthenticationError) {
        deps.failureAudit?.record(address, 'scanner_token', contextOf(res).requestId);
        await guard?.recordFailure(address);
      }
      throw err;
    }
  };
}
