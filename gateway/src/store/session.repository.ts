import { QueryTypes, type Sequelize } from 'sequelize';
import type { Plan } from '@skills/common';
import type { Account } from '../domain/accounts/account';
import type { SessionRecord, SessionRepository, SignInMethod } from '../domain/sessions/session';

interface SessionRow {
  id: string;
  account_id: string;
  method: SignInMethod;
  user_agent: string | null;
  created_at: Date;
  authenticated_at: Date;
  last_seen_at: Date;
  idle_expires_at: Date;
  expires_at: Date;
}

const COLUMNS =
  's.id, s.account_id, s.method, s.user_agent, s.created_at, s.authenticated_at, s.last_seen_at, s.idle_expires_at, s.expires_at';
const ms = (at: Date) => new Date(at).getTime();

function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    method: row.method,
    userAgent: row.user_agent,
    createdAt: ms(row.created_at),
    authenticatedAt: ms(row.authenticated_at),
    lastSeenAt: ms(row.last_seen_at),
    idleExpiresAt: ms(row.idle_expires_at),
    expiresAt: ms(row.expires_at),
  };
}

/**
 * `gateway.sessions` over Sequelize. Times come from the service's clock
 * (not the database's now()), so expiry is one rule tested with a fake clock.
 */
export class SequelizeSessionRepository implements SessionRepository {
  constructor(private readonly sequelize: Sequelize) {}

  async insert(record: SessionRecord, tokenHash: Buffer): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO gateway.sessions (id, account_id, token_hash, method, user_agent, created_at, authenticated_at, last_seen_at, idle_expires_at, expires_at)
       VALUES (:id, :accountId, decode(:hash, 'hex'), :method, :userAgent, :createdAt, :authenticatedAt, :lastSeenAt, :idleExpiresAt, :expiresAt)`,
      {
        replacements: {
          ...record,
          hash: tokenHash.toString('hex'),
          createdAt: new Date(record.createdAt),
          authenticatedAt: new Date(record.authenticatedAt),
          lastSeenAt: new Date(record.lastSeenAt),
          idleExpiresAt: new Date(record.idleExpiresAt),
          expiresAt: new Date(record.expiresAt),
        },
      },
    );
  }

  async findByHash(tokenHash: Buffer): Promise<{ session: SessionRecord; account: Account } | undefined> {
    const [row] = await this.sequelize.query<SessionRow & { email: string; name: string | null; plan: Plan }>(
      `SELECT ${COLUMNS}, a.email, a.name, a.plan
         FROM gateway.sessions s JOIN gateway.accounts a ON a.id = s.account_id
        WHERE s.token_hash = decode(:hash, 'hex')`,
      { replacements: { hash: tokenHash.toString('hex') }, type: QueryTypes.SELECT },
    );
    if (!row) return undefined;
    return {
      session: toRecord(row),
      account: { id: row.account_id, email: row.email, name: row.name, plan: row.plan },
    };
  }

  async markAuthenticated(id: string, at: number): Promise<void> {
    await this.sequelize.query(`UPDATE gateway.sessions SET authenticated_at = :at WHERE id = :id`, {
      replacements: { id, at: new Date(at) },
    });
  }

  async touch(id: string, lastSeenAt: number, idleExpiresAt: number): Promise<void> {
    await this.sequelize.query(
      `UPDATE gateway.sessions SET last_seen_at = :lastSeenAt, idle_expires_at = :idleExpiresAt WHERE id = :id`,
      {
        replacements: { id, lastSeenAt: new Date(lastSeenAt), idleExpiresAt: new Date(idleExpiresAt) },
      },
    );
  }

  async listByAccount(accountId: string): Promise<SessionRecord[]> {
    const rows = await this.sequelize.query<SessionRow>(
      `SELECT ${COLUMNS} FROM gateway.sessions s WHERE s.account_id = :accountId ORDER BY s.created_at DESC, s.id`,
      { replacements: { accountId }, type: QueryTypes.SELECT },
    );
    return rows.map(toRecord);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const rows = await this.sequelize.query(
      `DELETE FROM gateway.sessions WHERE id = :id AND account_id = :accountId RETURNING id`,
      {
        replacements: { id, accountId },
        type: QueryTypes.SELECT,
      },
    );
    return rows.length > 0;
  }

  async deleteAllBut(accountId: string, keepId: string | undefined): Promise<number> {
    const rows = await this.sequelize.query(
      `DELETE FROM gateway.sessions WHERE account_id = :accountId AND (:keepId::uuid IS NULL OR id <> :keepId::uuid) RETURNING id`,
      { replacements: { accountId, keepId: keepId ?? null }, type: QueryTypes.SELECT },
    );
    return rows.length;
  }

  async deleteEnded(accountId: string, now: number): Promise<void> {
    await this.sequelize.query(
      `DELETE FROM gateway.sessions WHERE account_id = :accountId AND (idle_expires_at <= :now OR expires_at <= :now)`,
      {
        replacements: { accountId, now: new Date(now) },
      },
    );
  }
}
