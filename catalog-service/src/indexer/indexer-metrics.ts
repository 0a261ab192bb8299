import { Counter, Gauge, type Logger, type ServiceMetrics } from '@skills/common';
import type { DeadLetterRepository } from '../store/dead-letter.repository';
import { INDEXER_GROUP, type Indexer } from './indexer';

export interface IndexerMetrics {
  /** count events as they are dead-lettered */
  deadLettered(count: number): void;
}

/**
 * The indexer's gauges, read at scrape time: how far it is behind the event
 * log, and how many dead letters wait for an operator. A failing read leaves
 * the gauge unset for that scrape (and says why in the log) rather than
 * failing /metrics.
 */
export function registerIndexerMetrics(
  metrics: ServiceMetrics,
  sources: { indexer: () => Indexer | undefined; deadLetters: DeadLetterRepository; logger: Logger },
): IndexerMetrics {
  const { registry } = metrics;
  new Gauge({
    name: 'skills_event_log_lag',
    help: 'Events published to the event log and not yet indexed, by consumer group',
    labelNames: ['group'],
    registers: [registry],
    async collect() {
      this.reset();
      const lag = await sources
        .indexer()
        ?.lag()
        .catch((err: unknown) => {
          sources.logger.warn({ err }, 'event-log lag unavailable');
          return undefined;
        });
      if (lag !== undefined) this.set({ group: INDEXER_GROUP }, lag);
    },
  });
  new Gauge({
    name: 'skills_dead_letters',
    help: 'Events in the dead-letter store (catalog.dead_letters), by consumer group',
    labelNames: ['group'],
    registers: [registry],
    async collect() {
      this.reset();
      const count = await sources.deadLetters.count(INDEXER_GROUP).catch((err: unknown) => {
        sources.logger.warn({ err }, 'dead-letter count unavailable');
        return undefined;
      });
      if (count !== undefined) this.set({ group: INDEXER_GROUP }, count);
    },
  });
  const total = new Counter({
    name: 'skills_dead_letters_total',
    help: 'Events this process dead-lettered since it started, by consumer group',
    labelNames: ['group'],
    registers: [registry],
  });
  return { deadLettered: (count) => total.inc({ group: INDEXER_GROUP }, count) };
}
