import type { Sequelize } from 'sequelize';
import { Counter, Gauge, type Logger, type ServiceMetrics } from '@skills/common';
import { Sql } from '../store/sql';
import { OutboxRetentionRepository } from './outbox-retention.repository';

export interface OutboxMetricsSources {
  sequelize: Sequelize;
  logger: Logger;
  /** EVENT_LOG=kafka only: rows the relay has not published yet */
  unpublished?: () => Promise<number>;
}

export interface OutboxMetrics {
  /** count rows as the pruner deletes them */
  pruned(rows: number): void;
  /** count the pruner's finished passes */
  passed(): void;
}

/**
 * The outbox's gauges, read at scrape time: its size in both event-log modes,
 * the age of its oldest row (which stays near the retention while pruning
 * keeps up), and with Kafka how many rows wait for the relay. A failing read
 * keeps the gauge's last value for that scrape (and says why in the log)
 * rather than failing /metrics; 0 would read as "all clear".
 */
export function registerOutboxMetrics(metrics: ServiceMetrics, sources: OutboxMetricsSources): OutboxMetrics {
  const { registry } = metrics;
  const outbox = new OutboxRetentionRepository(new Sql(sources.sequelize));
  const read = async <T>(what: string, query: () => Promise<T>): Promise<T | undefined> =>
    query().catch((err: unknown) => {
      sources.logger.warn({ err }, `${what} unavailable`);
      return undefined;
    });

  new Gauge({
    name: 'skills_outbox_rows',
    help: 'Rows in collections.outbox, published or not; bounded by the retention while pruning keeps up',
    registers: [registry],
    async collect() {
      const rows = await read('outbox size', () => outbox.countRows());
      if (rows !== undefined) this.set(rows);
    },
  });
  new Gauge({
    name: 'skills_outbox_oldest_age_seconds',
    help: 'Age of the lowest-id outbox row; well above the retention means a reader holds pruning back',
    registers: [registry],
    async collect() {
      const age = await read('outbox oldest age', () => outbox.oldestAgeSeconds());
      // An empty outbox holds nothing old.
      if (age !== undefined) this.set(age ?? 0);
    },
  });
  const { unpublished } = sources;
  if (unpublished) {
    // With EVENT_LOG=postgres nothing is published: the depth to watch is catalog-service's skills_event_log_lag.
    new Gauge({
      name: 'skills_outbox_depth',
      help: 'Outbox rows not yet published to the event log (EVENT_LOG=kafka)',
      registers: [registry],
      async collect() {
        const depth = await read('outbox depth', unpublished);
        if (depth !== undefined) this.set(depth);
      },
    });
  }
  const pruned = new Counter({
    name: 'skills_outbox_pruned_total',
    help: 'Outbox rows this process deleted after every reader was done with them, since it started',
    registers: [registry],
  });
  const passes = new Counter({
    name: 'skills_outbox_prune_passes_total',
    help: 'Outbox prune passes this process finished, deleting or not, since it started; flat while pruning is stalled',
    registers: [registry],
  });
  return { pruned: (rows) => pruned.inc(rows), passed: () => passes.inc() };
}
