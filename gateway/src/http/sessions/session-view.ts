/** Sessions and signed-in answers as the API shows them. */
import type { Response } from 'express';
import type { Account } from '../../domain/accounts/account';
import type { SessionRecord } from '../../domain/sessions/session';
import type { OpenedSession, SessionService } from '../../domain/sessions/session.service';
import { SESSION_COOKIE, type CookieJar } from './session-cookie';

const iso = (ms: number) => new Date(ms).toISOString();

export function sessionView(session: SessionRecord, currentId?: string) {
  return {
    id: session.id,
    method: session.method,
    userAgent: session.userAgent,
    createdAt: iso(session.createdAt),
    lastSeenAt: iso(session.lastSeenAt),
    /** when it ends unless used again */
    idleExpiresAt: iso(session.idleExpiresAt),
    /** when it ends whatever happens */
    expiresAt: iso(session.expiresAt),
    current: session.id === currentId,
  };
}

/** The answer of every call that opens or reads the caller's session: who, which session, and its CSRF token. */
export function signedInView(sessions: SessionService, account: Account, token: string, session: SessionRecord) {
  // recentSignInUntil: after it, creating or rolling a key asks for the password again (POST /api/v1/auth/reauthenticate)
  return {
    account,
    session: { ...sessionView(session, session.id), recentSignInUntil: iso(sessions.recentUntil(session)) },
    csrfToken: sessions.csrfTokenOf(token),
  };
}

/** Sets the cookie of a new session and answers with it. */
export function sendOpened(
  res: Response,
  deps: { cookies: CookieJar; sessions: SessionService },
  account: Account,
  opened: OpenedSession,
  status = 200,
): void {
  const { token, session } = opened;
  deps.cookies.set(res, SESSION_COOKIE, token, session.expiresAt - session.createdAt);
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ data: signedInView(deps.sessions, account, token, session) });
}
