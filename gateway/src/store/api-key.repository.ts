import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Plan } from '@skills/common';
import type { ApiKeySummary, KeyRepository, NewKey, StoredKey } from '../domain/accounts/account';
import { effectiveScopes, isScope, type KeyScopes } from '../domain/keys/scopes';

interface SummaryRow {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  scopes: string[] | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  workspace_id: string | null;
}

interface ResolvedRow {
  id: string;
  account_id: string;
  key_hash: Buffer;
  revoked_at: Date | null;
  expires_at: Date | null;
  scopes: string[] | null;
  plan: Plan;
  workspace_id: string | null;
}

const SUMMARY = 'id, account_id, name, prefix, scopes, created_at, expires_at, last_used_at, revoked_at, workspace_id';

const iso = (at: Date | null): string | null => (at ? new Date(at).toISOString() : null);

/** A scope the code no longer knows (a rolled-back release) grants nothing rather than failing the read. */
function toScopes(stored: string[] | null): KeyScopes {
  return stored === null ? null : stored.filter(isScope);
}

function toSummary(row: SummaryRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: effectiveScopes(toScopes(row.scopes)),
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    workspaceId: row.workspace_id,
  };
}

/**
 * `gateway.api_keys` over Sequelize. Hashes travel as hex and are decoded in
 * SQL, so the bytea never depends on the driver's Buffer escaping; scopes
 * travel as one space-separated string (a scope holds no space).
 */
export class SequelizeKeyRepository implements KeyRepository {
  /** `transaction`: every query runs in it (GatewayStore.transaction), else on the pool */
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  /** Revoked now (`endsAt` null), or expiring at `endsAt` unless it expires sooner already. */
  async end(keyId: string, endsAt: Date | null): Promise<void> {
    const end =
      endsAt === null
        ? 'revoked_at = COALESCE(revoked_at, now())'
        : 'expires_at = LEAST(COALESCE(expires_at, :endsAt), :endsAt)';
    await this.sequelize.query(`UPDATE gateway.api_keys SET ${end} WHERE id = :keyId`, {
      replacements: { keyId, endsAt },
      transaction: this.transaction,
    });
  }

  async insert(input: NewKey): Promise<ApiKeySummary> {
    const [row] = await this.sequelize.query<SummaryRow>(
      `INSERT INTO gateway.api_keys (id, account_id, name, prefix, key_hash, scopes, expires_at, workspace_id)
       VALUES (:id, :accountId, :name, :prefix, decode(:hash, 'hex'),
               CASE WHEN :scopes::text IS NULL THEN NULL ELSE string_to_array(:scopes::text, ' ') END, :expiresAt, :workspaceId)
       RETURNING ${SUMMARY}`,
      {
        replacements: {
          id: randomUUID(),
          accountId: input.accountId,
          name: input.name,
          prefix: input.prefix,
          hash: input.keyHash.toString('hex'),
          scopes: input.scopes === null ? null : input.scopes.join(' '),
          expiresAt: input.expiresAt,
          workspaceId: input.workspaceId,
        },
        type: QueryTypes.SELECT,
        transaction: this.transaction,
      },
    );
    return toSummary(row as SummaryRow);
  }

  async findByHash(keyHash: Buffer): Promise<StoredKey | undefined> {
    const [row] = await this.sequelize.query<ResolvedRow>(
      `SELECT k.id, k.account_id, k.key_hash, k.revoked_at, k.expires_at, k.scopes, k.workspace_id, a.plan
         FROM gateway.api_keys k JOIN gateway.accounts a ON a.id = k.account_id
        WHERE k.key_hash = decode(:hash, 'hex')`,
      { transaction: this.transaction, replacements: { hash: keyHash.toString('hex') }, type: QueryTypes.SELECT },
    );
    if (!row) return undefined;
    return {
      keyId: row.id,
      accountId: row.account_id,
      plan: row.plan,
      keyHash: Buffer.from(row.key_hash),
      revoked: row.revoked_at !== null,
      scopes: toScopes(row.scopes),
      expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
      workspaceId: row.workspace_id,
    };
  }

  async findById(keyId: string): Promise<(ApiKeySummary & { accountId: string }) | undefined> {
    const [row] = await this.sequelize.query<SummaryRow>(`SELECT ${SUMMARY} FROM gateway.api_keys WHERE id = :keyId`, {
      transaction: this.transaction,
      replacements: { keyId },
      type: QueryTypes.SELECT,
    });
    return row ? { ...toSummary(row), accountId: row.account_id } : undefined;
  }

  async listByAccount(accountId: string): Promise<ApiKeySummary[]> {
    const rows = await this.sequelize.query<SummaryRow>(
      `SELECT ${SUMMARY} FROM gateway.api_keys WHERE account_id = :accountId ORDER BY created_at, id`,
      {
        transaction: this.transaction,
        replacements: { accountId },
        type: QueryTypes.SELECT,
      },
    );
    return rows.map(toSummary);
  }

  async countActive(accountId: string, now: Date): Promise<number> {
    const [row] = await this.sequelize.query<{ n: string }>(
      `SELECT count(*) AS n FROM gateway.api_keys
        WHERE account_id = :accountId AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > :now)`,
      { transaction: this.transaction, replacements: { accountId, now }, type: QueryTypes.SELECT },
    );
    return Number(row?.n ?? 0);
  }

  async revoke(keyId: string): Promise<{ accountId: string } | undefined> {
    const [row] = await this.sequelize.query<{ account_id: string }>(
      `UPDATE gateway.api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = :keyId RETURNING account_id`,
      { transaction: this.transaction, replacements: { keyId }, type: QueryTypes.SELECT },
    );
    return row ? { accountId: row.account_id } : undefined;
  }

  async touch(keyId: string): Promise<void> {
    // The WHERE clause keeps replicas from rewriting the row more than once a minute.
    await this.sequelize.query(
      `UPDATE gateway.api_keys SET last_used_at = now()
        WHERE id = :keyId AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      { transaction: this.transaction, replacements: { keyId } },
    );
  }
}
