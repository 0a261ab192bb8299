import type {
  IdempotencyClaim,
  IdempotencyRepository,
  IdempotencyRequest,
  StoredResponse,
} from '../domain/idempotency';
import type { Sql } from './sql';

/** Expired rows of other keys removed per claim: the table is purged lazily, in bounded steps. */
const PURGE_BATCH = 100;

export class SqlIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  async claim(request: IdempotencyRequest, ttlMs: number): Promise<IdempotencyClaim> {
    const { accountId, route, key, requestHash } = request;
    const ttl = `${ttlMs} milliseconds`;
    await this.sql.run(
      `DELETE FROM collections.idempotency_keys WHERE ctid IN (
         SELECT ctid FROM collections.idempotency_keys WHERE created_at < now() - $1::interval LIMIT ${PURGE_BATCH})`,
      [ttl],
    );
    await this.sql.run(
      `DELETE FROM collections.idempotency_keys
        WHERE account_id = $1 AND route = $2 AND key = $3 AND created_at < now() - $4::interval`,
      [accountId, route, key, ttl],
    );
    // A concurrent claim of the same key makes this insert wait until that transaction ends.
    const inserted = await this.sql.one(
      `INSERT INTO collections.idempotency_keys (account_id, route, key, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, route, key) DO NOTHING RETURNING 1 AS claimed`,
      [accountId, route, key, requestHash],
    );
    if (inserted) return { kind: 'claimed' };
    const row = await this.sql.one<{ request_hash: string; status: number | null; body: unknown }>(
      `SELECT request_hash, status, body FROM collections.idempotency_keys WHERE account_id = $1 AND route = $2 AND key = $3`,
      [accountId, route, key],
    );
    // Gone between the two statements (purged by another claim): treat it as held.
    if (!row) return { kind: 'existing', requestHash, response: null };
    const response = row.status === null ? null : { status: row.status, body: row.body };
    return { kind: 'existing', requestHash: row.request_hash, response };
  }

  async complete(request: IdempotencyRequest, response: StoredResponse): Promise<void> {
    await this.sql.run(
      `UPDATE collections.idempotency_keys SET status = $4, body = $5::jsonb
        WHERE account_id = $1 AND route = $2 AND key = $3`,
      [request.accountId, request.route, request.key, response.status, JSON.stringify(response.body)],
    );
  }
}
