/** The sender's SQL on `webhook_deliveries`: claiming due rows and recording each attempt. */
import type { Sequelize, Transaction } from 'sequelize';
import { Sql } from '../store/sql';

/** A delivery claimed for one attempt, with what signing and sending need. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  body: string;
  /** attempts made before this one */
  attempts: number;
  url: string;
  secret: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export class DeliveryRepository {
  private readonly sql: Sql;

  constructor(private readonly sequelize: Sequelize) {
    this.sql = new Sql(sequelize);
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints, oldest due
   * first, and at most `perEndpoint` less what is in flight for any one
   * endpoint (`inFlight`, this instance's): one endpoint's backlog cannot
   * take every slot. SKIP LOCKED lets instances claim side by side without
   * waiting on each other; pushing `next_attempt_at` past the attempt's
   * timeout is the lease that keeps the others off a claimed row after this
   * statement commits. The outer lock re-checks that a row is still due, so
   * a row another instance claimed meanwhile is left alone.
   */
  async claimDue(request: {
    limit: number;
    leaseMs: number;
    perEndpoint: number;
    inFlight: ReadonlyMap<string, number>;
  }): Promise<ClaimedDelivery[]> {
    const busy = [...request.inFlight];
    return this.sql.rows<ClaimedDelivery>(
      `UPDATE collections.webhook_deliveries d
       SET next_attempt_at = now() + $2 * interval '1 millisecond', first_attempt_at = COALESCE(d.first_attempt_at, now())
       FROM collections.webhooks w
       WHERE w.id = d.webhook_id AND d.id IN (
         SELECT due.id FROM collections.webhook_deliveries due
         WHERE due.status IN ('pending', 'failed') AND due.next_attempt_at <= now() AND due.id IN (
           SELECT ranked.id FROM (
             SELECT c.id, c.webhook_id, c.next_attempt_at,
                    row_number() OVER (PARTITION BY c.webhook_id ORDER BY c.next_attempt_at, c.id) AS rank
             FROM collections.webhook_deliveries c
             JOIN collections.webhooks hook ON hook.id = c.webhook_id AND hook.enabled
             WHERE c.status IN ('pending', 'failed') AND c.next_attempt_at <= now()) ranked
           LEFT JOIN unnest($4::uuid[], $5::int[]) AS busy(webhook_id, in_flight) ON busy.webhook_id = ranked.webhook_id
           WHERE ranked.rank <= $3 - COALESCE(busy.in_flight, 0)
           ORDER BY ranked.next_attempt_at, ranked.id LIMIT $1)
         FOR UPDATE OF due SKIP LOCKED)
       RETURNING d.id, d.webhook_id AS "webhookId", d.event_id AS "eventId", d.body, d.attempts, w.url, w.secret`,
      [request.limit, request.leaseMs, request.perEndpoint, busy.map(([id]) => id), busy.map(([, n]) => n)],
    );
  }

  async delivered(id: string, statusCode: number): Promise<void> {
    await this.sql.run(
      `UPDATE collections.webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status_code = $2,
         last_error = NULL, next_attempt_at = NULL, delivered_at = now() WHERE id = $1`,
      [id, statusCode],
    );
  }

  /**
   * A failed attempt: retried after `retryInMs`, or abandoned once `giveUpAfterMs`
   * have passed since the first attempt, which disables the endpoint with the
   * reason, in one transaction.
   */
  async failed(
    delivery: ClaimedDelivery,
    outcome: AttemptOutcome,
    retryInMs: number,
    giveUpAfterMs: number,
  ): Promise<'failed' | 'abandoned'> {
    return this.sequelize.transaction(async (t: Transaction) => {
      const sql = new Sql(this.sequelize, t);
      const row = await sql.one<{ status: 'failed' | 'abandoned'; since: string }>(
        `UPDATE collections.webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3,
           status = CASE WHEN now() - first_attempt_at >= $4 * interval '1 millisecond' THEN 'abandoned' ELSE 'failed' END,
           next_attempt_at = CASE WHEN now() - first_attempt_at >= $4 * interval '1 millisecond' THEN NULL
                                  ELSE now() + $5 * interval '1 millisecond' END
         WHERE id = $1 RETURNING status, to_char(first_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since`,
        [delivery.id, outcome.statusCode, outcome.error, giveUpAfterMs, retryInMs],
      );
      const status = row?.status ?? 'failed';
      if (status === 'abandoned') {
        const reason = `Deliveries failed from ${row?.since} until they were abandoned (event ${delivery.eventId}, last error: ${outcome.error}); re-enable the endpoint to resume`;
        await sql.run(
          'UPDATE collections.webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1 AND enabled',
          [delivery.webhookId, reason],
        );
      }
      return status;
    });
  }
}
