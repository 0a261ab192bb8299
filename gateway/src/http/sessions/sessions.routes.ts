/**
 * The caller's own session and the others of the account: read it, sign
 * out, list every session, sign out the others (or one of them). Only a
 * session may call these: an API key gets 403.
 */
import { Router, type Request, type Response } from 'express';
import { NotAllowedError, NotFoundError, isUuid, methodNotAllowed } from '@skills/common';
import { authEvent } from '../../domain/audit/auth-audit';
import { authRequestOf } from '../sign-in/auth-request';
import type { AuditLog } from '../../domain/audit/audit';
import type { SessionService } from '../../domain/sessions/session.service';
import { SESSION_COOKIE, type CookieJar } from './session-cookie';
import type { CurrentSession, SessionGate } from './session-gate';
import { sessionView, signedInView } from './session-view';

export interface SessionRoutesDeps {
  gate: SessionGate;
  sessions: SessionService;
  cookies: CookieJar;
  /** sign-outs are recorded there */
  audit: AuditLog;
}

/** A session-only call: an API key is refused by name, no cookie is 401, a state change needs CSRF + Origin. */
export async function requireSession(gate: SessionGate, req: Request): Promise<CurrentSession> {
  if (req.get('authorization') !== undefined) throw new NotAllowedError('auth.sessionOnly');
  return gate.require(req);
}

export function sessionRoutes(deps: SessionRoutesDeps): Router {
  const router = Router();
  const { gate, sessions, cookies, audit } = deps;
  const recordSignOut = (
    req: Request,
    res: Response,
    accountId: string,
    scope: 'this' | 'others' | 'one',
    count: number,
  ) => audit.append(authEvent(authRequestOf(req, res), 'auth.sign_out', accountId, { scope, sessions: count }));

  router
    .route('/api/v1/auth/session')
    .get(async (req: Request, res: Response) => {
      const { account, token, session } = await requireSession(gate, req);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: signedInView(sessions, account, token, session) });
    })
    .delete(async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      if (await sessions.end(account.id, session.id)) await recordSignOut(req, res, account.id, 'this', 1);
      cookies.clear(res, SESSION_COOKIE);
      res.json({ data: { signedOut: true } });
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route('/api/v1/me/sessions')
    .get(async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const all = await sessions.list(account.id);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { sessions: all.map((s) => sessionView(s, session.id)) } });
    })
    .delete(async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const signedOut = await sessions.endAllBut(account.id, session.id);
      if (signedOut > 0) await recordSignOut(req, res, account.id, 'others', signedOut);
      res.json({ data: { signedOut } });
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route('/api/v1/me/sessions/:sessionId')
    .delete(async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const id = String(req.params.sessionId ?? '');
      const ended = isUuid(id) && (await sessions.end(account.id, id));
      if (!ended) throw new NotFoundError('session.notFound');
      await recordSignOut(req, res, account.id, id === session.id ? 'this' : 'one', 1);
      if (id === session.id) cookies.clear(res, SESSION_COOKIE);
      res.json({ data: { signedOut: 1 } });
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
