// @store-specific the Sequelize session repository
/**
 * Session expiry on a fake clock, on both stores: an in-memory one here and
 * the real Postgres one (PGlite, or DATABASE_URL) below. Idle expiry is
 * pushed back by use; absolute expiry is not.
 */
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, type TestDatabase, silentLogger } from '@skills/common/testing';
import type { Sequelize } from 'sequelize';
import type { Account } from '../../src/domain/accounts/account';
import type { SessionRecord, SessionRepository } from '../../src/domain/sessions/session';
import { SessionService, hashSessionToken } from '../../src/domain/sessions/session.service';
import { SequelizeSessionRepository } from '../../src/store/session.repository';
import { GATEWAY_SCHEMA, gatewayMigrations } from '../../src/store/migrations';

const logger = silentLogger();
const MINUTE = 60_000;
const POLICY = { idleMs: 30 * MINUTE, absoluteMs: 120 * MINUTE };

/** A strict in-memory store: sessions by token hash. */
class MemorySessionStore implements SessionRepository {
  readonly rows = new Map<string, SessionRecord>();
  constructor(private readonly account: Account) {}
  async insert(record: SessionRecord, tokenHash: Buffer): Promise<void> {
    this.rows.set(tokenHash.toString('hex'), { ...record });
  }
  async findByHash(tokenHash: Buffer) {
    const session = this.rows.get(tokenHash.toString('hex'));
    return session ? { session: { ...session }, account: this.account } : undefined;
  }
  async touch(id: string, lastSeenAt: number, idleExpiresAt: number): Promise<void> {
    for (const row of this.rows.values()) if (row.id === id) Object.assign(row, { lastSeenAt, idleExpiresAt });
  }
  async markAuthenticated(id: string, authenticatedAt: number): Promise<void> {
    for (const row of this.rows.values()) if (row.id === id) Object.assign(row, { authenticatedAt });
  }
  async listByAccount(accountId: string): Promise<SessionRecord[]> {
    return [...this.rows.values()].filter((r) => r.accountId === accountId);
  }
  async delete(accountId: string, id: string): Promise<boolean> {
    for (const [hash, row] of this.rows)
      if (row.id === id && row.accountId === accountId) return this.rows.delete(hash);
    return false;
  }
  async deleteAllBut(accountId: string, keepId: string | undefined): Promise<number> {
    let n = 0;
    for (const [hash, row] of this.rows)
      if (row.accountId === accountId && row.id !== keepId && this.rows.delete(hash)) n += 1;
    return n;
  }
  async deleteEnded(accountId: string, now: number): Promise<void> {
    for (const [hash, row] of this.rows)
      if (row.accountId === accountId && (row.idleExpiresAt <= now || row.expiresAt <= now)) this.rows.delete(hash);
  }
}

type StoreFactory = () => Promise<{ store: SessionRepository; accountId: string; close(): Promise<void> }>;

const memory: StoreFactory = async () => {
  const account: Account = {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'a@example.com',
    name: null,
    plan: 'free',
  };
  return { store: new MemorySessionStore(account), accountId: account.id, close: async () => undefined };
};

const postgres: StoreFactory = async () => {
  const db: TestDatabase = await createTestDatabase();
  const sequelize: Sequelize = createSequelize({ url: db.url, poolMax: 2, logger, applicationName: 'session-test' });
  await runMigrations(sequelize, GATEWAY_SCHEMA, gatewayMigrations, logger);
  const accountId = '00000000-0000-4000-8000-000000000002';
  await sequelize.query(
    `INSERT INTO gateway.accounts (id, email, plan) VALUES ('${accountId}', 'b@example.com', 'free')`,
  );
  return {
    store: new SequelizeSessionRepository(sequelize),
    accountId,
    close: async () => {
      await sequelize.close();
      await db.drop();
    },
  };
};

describe.each([
  ['in memory', memory],
  ['on Postgres', postgres],
])('SessionService %s', (_name, factory) => {
  let now = Date.parse('2026-11-25T09:00:00Z');
  let env: Awaited<ReturnType<StoreFactory>>;
  let sut: SessionService;

  beforeAll(async () => {
    env = await factory();
    sut = new SessionService({ store: env.store, policy: POLICY, logger, now: () => now });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('keeps only the hash of the token', async () => {
    const { token, session } = await sut.open(env.accountId, 'password', 'jest');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const found = await env.store.findByHash(hashSessionToken(token));
    expect(found?.session.id).toBe(session.id);
    expect(JSON.stringify(await env.store.listByAccount(env.accountId))).not.toContain(token);
  });

  it('ends a session left unused past the idle timeout', async () => {
    const { token } = await sut.open(env.accountId, 'password', undefined);
    now += 29 * MINUTE;
    expect(await sut.resolve(token)).toBeDefined();
    now += 29 * MINUTE; // used 29 minutes ago: still alive, the use pushed idle expiry back
    expect(await sut.resolve(token)).toBeDefined();
    now += 31 * MINUTE;
    expect(await sut.resolve(token)).toBeUndefined();
    expect(await sut.resolve(token)).toBeUndefined();
  });

  it('ends a session at its absolute expiry however busy it is', async () => {
    const { token } = await sut.open(env.accountId, 'link', undefined);
    for (let i = 0; i < 11; i += 1) {
      now += 10 * MINUTE;
      expect(await sut.resolve(token)).toBeDefined();
    }
    now += 10 * MINUTE; // 120 minutes after it was opened
    expect(await sut.resolve(token)).toBeUndefined();
  });

  it('counts as a recent sign-in for 10 minutes, used or not, and again once the password is entered', async () => {
    const { token } = await sut.open(env.accountId, 'password', undefined);
    now += 9 * MINUTE;
    const fresh = await sut.resolve(token);
    expect(() => sut.requireRecent(fresh!.session)).not.toThrow();
    now += 2 * MINUTE;
    const stale = (await sut.resolve(token))!.session;
    expect(() => sut.requireRecent(stale)).toThrow(expect.objectContaining({ messageKey: 'session.reauthenticate' }));
    await sut.markAuthenticated(stale);
    const renewed = (await sut.resolve(token))!.session;
    expect(() => sut.requireRecent(renewed)).not.toThrow();
    expect(sut.recentUntil(renewed)).toBe(now + 10 * MINUTE);
  });

  it('signs out every other session and keeps the current one', async () => {
    await sut.endAllBut(env.accountId);
    const a = await sut.open(env.accountId, 'password', undefined);
    const b = await sut.open(env.accountId, 'oidc', undefined);
    expect(await sut.endAllBut(env.accountId, a.session.id)).toBe(1);
    expect(await sut.resolve(a.token)).toBeDefined();
    expect(await sut.resolve(b.token)).toBeUndefined();
  });

  it('binds the CSRF token to the session', async () => {
    const a = await sut.open(env.accountId, 'password', undefined);
    const b = await sut.open(env.accountId, 'password', undefined);
    expect(sut.csrfTokenMatches(a.token, sut.csrfTokenOf(a.token))).toBe(true);
    expect(sut.csrfTokenMatches(a.token, sut.csrfTokenOf(b.token))).toBe(false);
    expect(sut.csrfTokenMatches(a.token, undefined)).toBe(false);
  });
});
