/**
 * Opening, resolving and ending console sessions. The cookie carries a
 * random token (256 bits); the store keeps its SHA-256 only, so a leaked
 * table opens no session. A session ends at its idle expiry (pushed back by
 * use, at most once a minute so a busy console does not write on every call)
 * or its absolute expiry, whichever comes first. The CSRF token is an HMAC
 * of the session token: bound to the session, never stored.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { NotAllowedError, type Logger } from '@skills/common';
import type { Account } from '../accounts/account';
import type { SessionRecord, SessionRepository, SignInMethod } from './session';

export interface SessionPolicy {
  /** a session unused this long ends */
  idleMs: number;
  /** a session ends this long after it was opened, used or not */
  absoluteMs: number;
}

export interface OpenedSession {
  /** the cookie's value: shown to the browser only */
  token: string;
  session: SessionRecord;
}

/** Uses are recorded at most this often per session. */
const TOUCH_INTERVAL_MS = 60_000;

/** Creating or rolling an API key needs the holder to have proved who they are this recently (OWASP ASVS V3.7). */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export function hashSessionToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export class SessionService {
  private readonly now: () => number;

  constructor(
    private readonly deps: { store: SessionRepository; policy: SessionPolicy; logger: Logger; now?: () => number },
  ) {
    this.now = deps.now ?? Date.now;
  }

  get policy(): SessionPolicy {
    return this.deps.policy;
  }

  async open(accountId: string, method: SignInMethod, userAgent: string | undefined): Promise<OpenedSession> {
    const now = this.now();
    const token = randomBytes(32).toString('base64url');
    const { idleMs, absoluteMs } = this.deps.policy;
    const session: SessionRecord = {
      id: randomUUID(),
      accountId,
      method,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
      createdAt: now,
      authenticatedAt: now,
      lastSeenAt: now,
      idleExpiresAt: now + Math.min(idleMs, absoluteMs),
      expiresAt: now + absoluteMs,
    };
    await this.deps.store.deleteEnded(accountId, now);
    await this.deps.store.insert(session, hashSessionToken(token));
    return { token, session };
  }

  /** The live session of a cookie token and its account; undefined when unknown or ended. */
  async resolve(token: string): Promise<{ session: SessionRecord; account: Account } | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const found = await this.deps.store.findByHash(hashSessionToken(token));
    if (!found) return undefined;
    const { session } = found;
    const now = this.now();
    if (now >= session.idleExpiresAt || now >= session.expiresAt) {
      await this.deps.store.delete(session.accountId, session.id);
      return undefined;
    }
    if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
      const idleExpiresAt = Math.min(now + this.deps.policy.idleMs, session.expiresAt);
      await this.deps.store.touch(session.id, now, idleExpiresAt);
      return { ...found, session: { ...session, lastSeenAt: now, idleExpiresAt } };
    }
    return found;
  }

  /** Until when the session counts as recently signed in (epoch ms). */
  recentUntil(session: SessionRecord): number {
    return session.authenticatedAt + RECENT_SIGN_IN_MS;
  }

  /** 403 `session.reauthenticate` unless the holder signed in or re-entered the password within RECENT_SIGN_IN_MS. */
  requireRecent(session: SessionRecord): void {
    if (this.now() > this.recentUntil(session))
      throw new NotAllowedError('session.reauthenticate', { minutes: RECENT_SIGN_IN_MS / 60_000 });
  }

  /** The holder just proved who they are again: the session as it now is. */
  async markAuthenticated(session: SessionRecord): Promise<SessionRecord> {
    const authenticatedAt = this.now();
    await this.deps.store.markAuthenticated(session.id, authenticatedAt);
    return { ...session, authenticatedAt };
  }

  list(accountId: string): Promise<SessionRecord[]> {
    return this.deps.store.listByAccount(accountId);
  }

  /** Signs one session out; false when the account has no such session. */
  end(accountId: string, id: string): Promise<boolean> {
    return this.deps.store.delete(accountId, id);
  }

  /** Signs out every session of the account but `keepId` (all of them when undefined). */
  endAllBut(accountId: string, keepId?: string): Promise<number> {
    return this.deps.store.deleteAllBut(accountId, keepId);
  }

  /** The CSRF token of a session token. */
  csrfTokenOf(token: string): string {
    return createHmac('sha256', token).update('csrf').digest('base64url');
  }

  csrfTokenMatches(token: string, given: string | undefined): boolean {
    if (given === undefined) return false;
    const expected = Buffer.from(this.csrfTokenOf(token));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
