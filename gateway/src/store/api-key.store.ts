import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Plan } from '@skills/common';
import type { ApiKeySummary, KeyStore, StoredKey } from '../domain/account';

interface SummaryRow {
  id: string;
  name: string | null;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

interface ResolvedRow {
  id: string;
  account_id: string;
  key_hash: Buffer;
  revoked_at: Date | null;
  plan: Plan;
}

const SUMMARY = 'id, name, prefix, created_at, revoked_at';

function toSummary(row: SummaryRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  };
}

/**
 * `gateway.api_keys` over Sequelize. Hashes travel as hex and are decoded in
 * SQL, so the bytea never depends on the driver's Buffer escaping.
 */
export class SequelizeKeyStore implements KeyStore {
  /** `transaction`: every query runs in it (GatewayStore.transaction), else on the pool */
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  async insert(input: { accountId: string; name: string | null; prefix: string; keyHash: Buffer }): Promise<ApiKeySummary> {
    const [row] = await this.sequelize.query<SummaryRow>(
      `INSERT INTO gateway.api_keys (id, account_id, name, prefix, key_hash)
       VALUES (:id, :accountId, :name, :prefix, decode(:hash, 'hex')) RETURNING ${SUMMARY}`,
      {
        transaction: this.transaction,
        replacements: { id: randomUUID(), accountId: input.accountId, name: input.name, prefix: input.prefix, hash: input.keyHash.toString('hex') },
        type: QueryTypes.SELECT,
      },
    );
    return toSummary(row as SummaryRow);
  }

  async findByHash(keyHash: Buffer): Promise<StoredKey | undefined> {
    const [row] = await this.sequelize.query<ResolvedRow>(
      `SELECT k.id, k.account_id, k.key_hash, k.revoked_at, a.plan
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
    };
  }

  async listByAccount(accountId: string): Promise<ApiKeySummary[]> {
    const rows = await this.sequelize.query<SummaryRow>(
      `SELECT ${SUMMARY} FROM gateway.api_keys WHERE account_id = :accountId ORDER BY created_at, id`,
      { transaction: this.transaction, replacements: { accountId }, type: QueryTypes.SELECT },
    );
    return rows.map(toSummary);
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
