import type { Sequelize } from 'sequelize';
import { ServiceUnavailableError, type Health, type Logger } from '@skills/common';
import { Sql } from '../store/sql';
import type { OutboxPublisher } from './outbox-publisher';
import { RelayOutboxRepository } from './relay-outbox.repository';
import { InterruptiblePause } from '../background/interruptible-pause';

export interface OutboxRelayOptions {
  sequelize: Sequelize;
  publisher: OutboxPublisher;
  logger: Logger;
  /** rows claimed per transaction */
  batchSize?: number;
  /** pause when the outbox is drained (or another relay leads) */
  idleMs?: number;
  /** backoff after a failed batch: doubles from `initialDelayMs` up to `maxDelayMs` */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
}

/**
 * Moves `collections.outbox` rows to the event log (EVENT_LOG=kafka). Each
 * batch is one transaction: take the leader lock, claim the oldest
 * unpublished rows, publish them, mark them published. The mark commits only
 * after the broker acknowledged, so a crash in between publishes the rows
 * again on restart (at least once; consumers are idempotent by version).
 *
 * The transaction stays open while the broker answers. That is fine on a
 * Postgres server; on the embedded PGlite it would hold up every other query,
 * which is why the embedded default uses PostgresEventLog and no relay.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private loop?: Promise<void>;
  private stopping = false;
  private readonly pauser = new InterruptiblePause();
  private failures = 0;
  private lastError?: string;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? 250;
    this.initialDelayMs = options.retry?.initialDelayMs ?? 500;
    this.maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  }

  /** Starts the polling loop; returns at once. */
  start(): void {
    if (this.stopping) throw new ServiceUnavailableError('server.shuttingDown');
    this.loop ??= this.run();
  }

  /**
   * Publishes one batch if this relay is the leader; returns how many rows
   * it published (0: nothing to do, or another relay leads).
   */
  async runOnce(): Promise<number> {
    const { sequelize, publisher } = this.options;
    // A cheap look first, so an idle relay takes no locks and opens no transaction.
    if (!(await new RelayOutboxRepository(new Sql(sequelize)).anyUnpublished())) return 0;
    return sequelize.transaction(async (transaction) => {
      const outbox = new RelayOutboxRepository(new Sql(sequelize, transaction));
      if (!(await outbox.tryLead())) return 0;
      const rows = await outbox.claim(this.batchSize);
      if (rows.length === 0) return 0;
      await publisher.publish(rows);
      await outbox.markPublished(rows.map((r) => r.id));
      return rows.length;
    });
  }

  /** Rows not yet published. */
  async lag(): Promise<number> {
    return new RelayOutboxRepository(new Sql(this.options.sequelize)).countUnpublished();
  }

  /** Unhealthy while batches keep failing (the broker is unreachable or refuses). */
  health(): Health {
    return this.failures === 0 ? { ok: true } : { ok: false, reason: `outbox relay failing: ${this.lastError}` };
  }

  /** Lets the batch in hand finish (published and marked, or rolled back), then disconnects the publisher. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pauser.wake();
    await this.loop;
    await this.options.publisher.close();
  }

  private async run(): Promise<void> {
    const log = this.options.logger.child({ component: 'outbox-relay' });
    log.info({ batchSize: this.batchSize }, 'outbox relay started');
    while (!this.stopping) {
      try {
        const published = await this.runOnce();
        if (this.failures > 0) log.info({ failures: this.failures }, 'outbox relay recovered');
        this.failures = 0;
        if (published > 0) log.debug({ published }, 'outbox rows published');
        if (published < this.batchSize) await this.pauser.sleep(this.idleMs);
      } catch (err) {
        this.failures += 1;
        this.lastError = err instanceof Error ? err.message : String(err);
        const delay = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** (this.failures - 1));
        log.warn({ err, failures: this.failures, retryInMs: delay }, 'outbox relay batch failed; nothing marked');
        await this.pauser.sleep(delay);
      }
    }
    log.info('outbox relay stopped');
  }
}
