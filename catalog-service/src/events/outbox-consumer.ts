import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { EventBatchHandler, EventSubscription, SkillChangeEvent } from '@skills/common';

/** Where a consumer group stands: the (txid, id) of the last outbox row it handled. */
export interface OutboxPosition {
  txid: string;
  id: string;
}

export interface OutboxConsumerOptions {
  sequelize: Sequelize;
  logger: Logger;
  group: string;
  topic: string;
  handler: EventBatchHandler;
  batchSize: number;
  pollIntervalMs: number;
  retryMinMs: number;
  retryMaxMs: number;
  /** called after every read, with how many events it delivered (tests, metrics) */
  onPoll?: (delivered: number) => void;
}

interface OutboxRow {
  id: string;
  txid: string;
  event: SkillChangeEvent;
}

const START: OutboxPosition = { txid: '0', id: '0' };

/**
 * One consumer group reading `collections.outbox` in (txid, id) order. It
 * reads only rows whose transaction is below the oldest one still in flight
 * (`pg_snapshot_xmin`): every later commit gets a txid at or above that
 * bound, so advancing the position past what was read can never skip a row
 * that commits late. The position is saved only after the handler resolved
 * (at least once); a failed batch is retried with backoff, never skipped.
 */
export class OutboxConsumer implements EventSubscription {
  private position: OutboxPosition | undefined;
  private stopping = false;
  private pendingWake = false;
  private wakeUp: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(private readonly options: OutboxConsumerOptions) {
    this.done = this.run();
  }

  /** A hint that new rows may exist (NOTIFY); cheap and safe to call at any time. */
  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.done;
  }

  async lag(): Promise<number> {
    const pos = this.position ?? (await this.loadPosition());
    const [row] = await this.options.sequelize.query<{ lag: number }>(
      `SELECT count(*)::int AS lag FROM collections.outbox
       WHERE topic = $1 AND (txid, id) > ($2::xid8, $3::bigint)`,
      { type: QueryTypes.SELECT, bind: [this.options.topic, pos.txid, pos.id] },
    );
    return row?.lag ?? 0;
  }

  private async run(): Promise<void> {
    const { logger, group, batchSize, pollIntervalMs, retryMinMs, retryMaxMs } = this.options;
    let failures = 0;
    while (!this.stopping) {
      let delivered: number;
      try {
        delivered = await this.step();
        failures = 0;
      } catch (err) {
        failures += 1;
        const delayMs = Math.min(retryMaxMs, retryMinMs * 2 ** Math.min(failures - 1, 20));
        logger.error({ err, group, failures, delayMs }, 'event batch failed; it will be retried');
        await this.idle(delayMs, false);
        continue;
      }
      this.options.onPoll?.(delivered);
      // A full batch means more rows are probably waiting: read again at once.
      if (delivered < batchSize) await this.idle(pollIntervalMs, true);
    }
  }

  /** Reads one batch, hands it to the handler, then saves the position. */
  private async step(): Promise<number> {
    const { sequelize, topic, batchSize, handler, group } = this.options;
    const pos = this.position ?? (await this.loadPosition());
    const rows = await sequelize.query<OutboxRow>(
      // ORDER BY must name the columns (o.), not the text aliases: sorted as text, '1000' < '999' and
      // the saved position would jump over every id of fewer digits still in the batch's range.
      `SELECT o.id::text AS id, o.txid::text AS txid, o.event FROM collections.outbox o
       WHERE o.topic = $1 AND (o.txid, o.id) > ($2::xid8, $3::bigint)
         AND o.txid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY o.txid, o.id
       LIMIT $4`,
      { type: QueryTypes.SELECT, bind: [topic, pos.txid, pos.id, batchSize] },
    );
    const last = rows.at(-1);
    if (!last) return 0;
    await handler(rows.map((r) => ({ ...r.event, eventId: r.id })));
    const next = { txid: last.txid, id: last.id };
    await sequelize.query(
      `INSERT INTO catalog.event_positions AS p (group_name, last_txid, last_id) VALUES ($1, $2::xid8, $3::bigint)
       ON CONFLICT (group_name) DO UPDATE SET last_txid = EXCLUDED.last_txid, last_id = EXCLUDED.last_id, updated_at = now()
       WHERE (p.last_txid, p.last_id) < (EXCLUDED.last_txid, EXCLUDED.last_id)`,
      { bind: [group, next.txid, next.id] },
    );
    this.position = next;
    return rows.length;
  }

  private async loadPosition(): Promise<OutboxPosition> {
    const [row] = await this.options.sequelize.query<OutboxPosition>(
      'SELECT last_txid::text AS txid, last_id::text AS id FROM catalog.event_positions WHERE group_name = $1',
      { type: QueryTypes.SELECT, bind: [this.options.group] },
    );
    this.position = row ?? START;
    return this.position;
  }

  /** Waits `ms`, or less when woken (a NOTIFY, or stop()). Backoff waits ignore NOTIFY. */
  private idle(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping || (wakeable && this.pendingWake)) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.pendingWake = false;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wakeUp = () => {
        if (wakeable || this.stopping) finish();
      };
    });
  }
}
