/**
 * Workspace events become deliveries: one row per enabled endpoint of the
 * workspace subscribed to the event's type, at most one per (endpoint, event).
 */
import { iso, type Sql } from '../store/sql';
import { committedAfter, type LogRow, type OrderedLog } from './ordered-log';
import { deliveryBody } from './webhook.model';

interface EventRow extends LogRow {
  event_id: string;
  workspace_id: string;
  type: string;
  data: unknown;
  created_at: Date | string;
}

async function fanOut(sql: Sql, rows: EventRow[]): Promise<void> {
  for (const row of rows) {
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as unknown) : row.data;
    const body = deliveryBody({
      id: row.event_id,
      workspaceId: row.workspace_id,
      type: row.type,
      data,
      createdAt: iso(row.created_at),
    });
    await sql.run(
      `INSERT INTO collections.webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at)
       SELECT gen_random_uuid(), w.id, $1, $2, $3, now() FROM collections.webhooks w
       WHERE w.workspace_id = $4 AND w.enabled AND $2 = ANY (w.events)
         -- an endpoint hears what happens once it exists, even when the reader comes to an older event late
         AND w.created_at <= $5
       ON CONFLICT (webhook_id, event_id) DO NOTHING`,
      [row.event_id, row.type, body, row.workspace_id, row.created_at],
    );
  }
}

export const workspaceEventsFanOut: OrderedLog<EventRow> = {
  reader: 'webhook-fanout',
  select: `SELECT e.id::text AS event_id, e.workspace_id, e.type, e.data, e.created_at, e.txid::text AS txid, e.seq::text AS id
           FROM collections.workspace_events e WHERE ${committedAfter('e.txid', 'e.seq')}
           ORDER BY e.txid, e.seq LIMIT $3`,
  handle: fanOut,
};
