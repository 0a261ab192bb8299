/** The SQL of webhook endpoints and their delivery log; the only file that talks to those tables. */
import type { Sequelize, Transaction } from 'sequelize';
import type { PageRequest } from '@skills/common';
import type { RateWindow } from '../domain/limits';
import { rateWindow } from '../store/rate-window';
import { iso, Sql } from '../store/sql';
import type { DeliveryView, WebhookEventType, WebhookPatch, WebhookView } from './webhook.model';

interface WebhookRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryView['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  delivered_at: Date | string | null;
}

const COLUMNS = 'id, url, events, description, enabled, disabled_reason, created_at, updated_at';

function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' || row.status === 'failed' ? isoOrNull(row.next_attempt_at) : null,
    createdAt: iso(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
  };
}

export class SqlWebhookRepository {
  private readonly sql: Sql;

  constructor(
    private readonly sequelize: Sequelize,
    transaction?: Transaction,
  ) {
    this.sql = new Sql(sequelize, transaction);
  }

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (webhooks: SqlWebhookRepository) => Promise<T>): Promise<T> {
    return this.sequelize.transaction((t: Transaction) => work(new SqlWebhookRepository(this.sequelize, t)));
  }

  /** Registrations of one workspace, one after the other until the transaction ends, so a count before an insert holds. */
  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1))`, [workspaceId]);
  }

  async count(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.webhooks WHERE workspace_id = $1',
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  /** Holds the endpoint's row until the transaction ends; false when the workspace has no such endpoint. */
  async lockEndpoint(workspaceId: string, id: string): Promise<boolean> {
    const row = await this.sql.one(
      'SELECT id FROM collections.webhooks WHERE id = $1 AND workspace_id = $2 FOR UPDATE',
      [id, workspaceId],
    );
    return row !== null;
  }

  /** The endpoint's deliveries of `eventType` made within `windowMs`. */
  windowOf(webhookId: string, eventType: string, windowMs: number, limit: number): Promise<RateWindow> {
    const deliveries = {
      table: 'collections.webhook_deliveries',
      where: 'webhook_id = $1 AND event_type = $2',
      bind: [webhookId, eventType],
    };
    return rateWindow(this.sql, deliveries, windowMs, limit);
  }

  async insert(
    id: string,
    workspaceId: string,
    input: { url: string; events: string[]; description: string; secret: string },
  ): Promise<WebhookView> {
    const row = await this.sql.one<WebhookRow>(
      `INSERT INTO collections.webhooks (id, workspace_id, url, events, description, secret)
       VALUES ($1, $2, $3, $4::text[], $5, $6) RETURNING ${COLUMNS}`,
      [id, workspaceId, input.url, input.events, input.description, input.secret],
    );
    return webhookView(row as WebhookRow);
  }

  async list(workspaceId: string): Promise<WebhookView[]> {
    const rows = await this.sql.rows<WebhookRow>(
      `SELECT ${COLUMNS} FROM collections.webhooks WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map(webhookView);
  }

  /** The endpoint when it belongs to the workspace; another workspace's is as missing. */
  async find(workspaceId: string, id: string): Promise<WebhookView | null> {
    const row = await this.sql.one<WebhookRow>(
      `SELECT ${COLUMNS} FROM collections.webhooks WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return row && webhookView(row);
  }

  /** Re-enabling clears the reason it was disabled. */
  async update(workspaceId: string, id: string, patch: WebhookPatch): Promise<WebhookView | null> {
    const row = await this.sql.one<WebhookRow>(
      `UPDATE collections.webhooks SET
         url = COALESCE($3, url), events = COALESCE($4::text[], events), description = COALESCE($5, description),
         enabled = COALESCE($6, enabled),
         disabled_reason = CASE WHEN $6::boolean IS TRUE THEN NULL ELSE disabled_reason END,
         updated_at = now()
       WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
      [id, workspaceId, patch.url ?? null, patch.events ?? null, patch.description ?? null, patch.enabled ?? null],
    );
    return row && webhookView(row);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    return (
      (await this.sql.run('DELETE FROM collections.webhooks WHERE id = $1 AND workspace_id = $2', [id, workspaceId])) >
      0
    );
  }

  async deliveries(webhookId: string, page: PageRequest): Promise<{ deliveries: DeliveryView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.rows<DeliveryRow>(
        `SELECT id, event_id, event_type, status, attempts, last_status_code, last_error, next_attempt_at, created_at, delivered_at
         FROM collections.webhook_deliveries WHERE webhook_id = $1
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [webhookId, page.limit, (page.page - 1) * page.limit],
      ),
      this.sql.one<{ total: number }>(
        'SELECT count(*)::int AS total FROM collections.webhook_deliveries WHERE webhook_id = $1',
        [webhookId],
      ),
    ]);
    return { deliveries: rows.map(deliveryView), total: count?.total ?? 0 };
  }

  /** Queues one delivery due now; a second one for the same (endpoint, event) is ignored. */
  async enqueue(delivery: {
    id: string;
    webhookId: string;
    eventId: string;
    eventType: string;
    body: string;
  }): Promise<void> {
    await this.sql.run(
      `INSERT INTO collections.webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (webhook_id, event_id) DO NOTHING`,
      [delivery.id, delivery.webhookId, delivery.eventId, delivery.eventType, delivery.body],
    );
  }
}
