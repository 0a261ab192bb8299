/**
 * What a request made with the session cookie may do. Reads need a live
 * session; a state-changing request also needs the page's Origin (or, when a
 * browser sends none, its Referer) to be this site's and the session's CSRF
 * token in `X-CSRF-Token`: SameSite=Lax alone still lets a top-level
 * cross-site POST through in some browsers, and an Origin check alone would
 * trust any page of a compromised sibling origin.
 *
 * A cookie is a credential like an API key: the address's failure budget is
 * checked before it costs a database read, and an unknown (or ended) session
 * counts against it. A live session spends its account's request budget,
 * whatever the plan, so the console gives no unlimited API use; every
 * session-only route passes here, so they are rate-limited too.
 */
import type { Request } from 'express';
import { AuthenticationError, NotAllowedError, RateLimitError } from '@skills/common';
import type { AuthFailureGuard } from '../../domain/limits/auth-failure-guard';
import type { Account } from '../../domain/accounts/account';
import type { AccountPrincipal } from '../../domain/keys/key-authenticator';
import type { SessionBudget } from '../../domain/limits/session-budget';
import type { SessionRecord } from '../../domain/sessions/session';
import type { SessionService } from '../../domain/sessions/session.service';
import { SESSION_COOKIE, type CookieJar } from './session-cookie';
import type { Site } from '../../domain/site';
import { clientAddress, refuseWhileBlocked } from '../client-address';

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CurrentSession {
  token: string;
  session: SessionRecord;
  account: Account;
}

export interface SessionGateDeps {
  sessions: SessionService;
  cookies: CookieJar;
  site: Site;
  /** per-address budget of failed authentications; none: unknown cookies are not counted */
  failures?: AuthFailureGuard;
  /** per-account budget of session requests; none: unlimited */
  budget?: SessionBudget;
}

export class SessionGate {
  constructor(private readonly deps: SessionGateDeps) {}

  /**
   * The live session of the request's cookie, if any; no check of the
   * method. 429 while the address is over its failure budget (before the
   * lookup) or the account over its request budget.
   */
  async current(req: Request): Promise<CurrentSession | undefined> {
    const token = this.deps.cookies.read(req, SESSION_COOKIE);
    if (token === undefined) return undefined;
    const { failures, budget } = this.deps;
    const address = clientAddress(req);
    if (failures) await refuseWhileBlocked(failures, address);
    const found = await this.deps.sessions.resolve(token);
    if (!found) {
      await failures?.recordFailure(address);
      return undefined;
    }
    const seconds = budget ? await budget.take(found.account.id) : 0;
    if (seconds > 0) throw new RateLimitError('rateLimit.exceeded', seconds);
    return { token, ...found };
  }

  /** A live session allowed to make this request, or 401 / 403. */
  async require(req: Request): Promise<CurrentSession> {
    const current = await this.current(req);
    if (!current) throw new AuthenticationError('session.required');
    this.checkStateChange(req, current);
    return current;
  }

  /** For /api/v1 calls without an API key: the session's account principal, or undefined without a live session. */
  async principalFor(req: Request): Promise<AccountPrincipal | undefined> {
    const current = await this.current(req);
    if (!current) return undefined;
    this.checkStateChange(req, current);
    const { account, session } = current;
    return { kind: 'account', accountId: account.id, plan: account.plan, keyId: `session:${session.id}` };
  }

  /** Sign-in and sign-up have no session yet: only the origin is checked (against login CSRF). */
  checkOrigin(req: Request): void {
    const origin = req.get('origin') ?? refererOrigin(req.get('referer'));
    if (origin === undefined || !this.deps.site.allowedOrigins.has(origin)) throw new NotAllowedError('session.origin');
  }

  private checkStateChange(req: Request, current: CurrentSession): void {
    if (SAFE_METHODS.has(req.method.toUpperCase())) return;
    this.checkOrigin(req);
    if (!this.deps.sessions.csrfTokenMatches(current.token, req.get(CSRF_HEADER)))
      throw new NotAllowedError('session.csrf');
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
