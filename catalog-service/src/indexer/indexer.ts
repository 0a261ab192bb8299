import type { Logger } from 'pino';
import type { EventLog, EventSubscription, SkillChangeEvent } from '@skills/common';
import { indexedStateOf } from '../domain/indexed-state';
import type { SearchEngine } from '../engines/search-engine';

/** The consumer group of the catalog indexer; its position is shared by every replica. */
export const INDEXER_GROUP = 'catalog-indexer';

export interface IndexerOptions {
  eventLog: EventLog;
  engine: SearchEngine;
  logger: Logger;
}

/**
 * Keeps the search read model in step with the system of record: every batch
 * of skill-change events becomes one `engine.apply`. A failing apply rejects,
 * so the event log retries the batch and its position does not advance.
 */
export class Indexer {
  private subscription: EventSubscription | undefined;

  constructor(private readonly options: IndexerOptions) {}

  async start(): Promise<void> {
    if (this.subscription) return;
    this.subscription = await this.options.eventLog.subscribe(INDEXER_GROUP, (events) => this.handle(events));
  }

  /** Returns once the batch in hand is applied. */
  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
  }

  /** Events not yet indexed, when the event log can tell. */
  async lag(): Promise<number | undefined> {
    return this.subscription?.lag();
  }

  private async handle(events: SkillChangeEvent[]): Promise<void> {
    const result = await this.options.engine.apply(events.map(indexedStateOf));
    this.options.logger.debug({ events: events.length, ...result }, 'events indexed');
  }
}
