import type { Sequelize } from 'sequelize';
import { ServiceUnavailableError, type Logger } from '@skills/common';
import { Sql } from '../store/sql';
import { OutboxRetentionRepository } from './outbox-retention.repository';
import { InterruptiblePause } from '../background/interruptible-pause';

/**
 * Which rows every reader of the outbox is done with:
 * `published` (EVENT_LOG=kafka): the relay published them, the broker acknowledged;
 * `consumed` (EVENT_LOG=postgres): every consumer group in `catalog.event_positions` read past them.
 */
export type OutboxPruneRule = 'published' | 'consumed';

export interface OutboxPrunerOptions {
  sequelize: Sequelize;
  logger: Logger;
  rule: OutboxPruneRule;
  /** a row is kept at least this long after it was written, whatever the rule says */
  retentionMs: number;
  /** pause between passes; a full batch is followed by the next at once */
  intervalMs: number;
  /** lowest-id rows examined, and at most deleted, per transaction; default 1,000 */
  batchSize?: number;
  /** called with the number of rows each batch deleted, when it deleted any (metrics) */
  onPruned?: (rows: number) => void;
  /** called after every pass that ran to its end, whether it deleted rows or not (metrics) */
  onPass?: () => void;
}

/**
 * Deletes `collections.outbox` rows that no reader needs any more and that are
 * older than the retention (docs/operations.md "Outbox retention"). Runs on
 * every replica; each batch is one short transaction under a try-lock, so one
 * replica deletes at a time and the others skip that pass. Deleting is
 * idempotent, so a pass cut short by a crash is simply repeated.
 */
export class OutboxPruner {
  private readonly batchSize: number;
  private loop?: Promise<void>;
  private stopping = false;
  private readonly pauser = new InterruptiblePause();

  constructor(private readonly options: OutboxPrunerOptions) {
    this.batchSize = options.batchSize ?? 1000;
  }

  /** Starts the loop (first pass at once); returns at once. */
  start(): void {
    if (this.stopping) throw new ServiceUnavailableError('server.shuttingDown');
    this.loop ??= this.run();
  }

  /** Deletes one batch if this replica leads; returns how many rows it deleted. */
  async runOnce(): Promise<number> {
    const { sequelize, rule, retentionMs } = this.options;
    return sequelize.transaction(async (transaction) => {
      const outbox = new OutboxRetentionRepository(new Sql(sequelize, transaction));
      if (!(await outbox.tryLead())) return 0;
      if (rule === 'published') return outbox.prunePublished(retentionMs, this.batchSize);
      // Before catalog-service has migrated there is no consumer to ask, so nothing may go.
      if (!(await outbox.consumerPositionsExist())) return 0;
      return outbox.pruneConsumed(retentionMs, this.batchSize);
    });
  }

  /** Lets the batch in hand commit or roll back, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pauser.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { logger, rule, retentionMs, intervalMs, onPruned, onPass } = this.options;
    const log = logger.child({ component: 'outbox-pruner' });
    log.info({ rule, retentionMs, intervalMs, batchSize: this.batchSize }, 'outbox pruner started');
    while (!this.stopping) {
      let deleted = 0;
      try {
        deleted = await this.runOnce();
        onPass?.();
      } catch (err) {
        // Nothing is lost by waiting: the rows stay until a later pass.
        log.warn({ err }, 'outbox prune pass failed; retrying after the interval');
      }
      if (deleted > 0) {
        onPruned?.(deleted);
        log.debug({ deleted }, 'outbox rows pruned');
      }
      // A full batch means a backlog (e.g. the first pass after an upgrade): keep going.
      if (deleted < this.batchSize) await this.pauser.sleep(intervalMs);
    }
    log.info('outbox pruner stopped');
  }
}
