import {
  ServiceUnavailableError,
  type EventLog,
  type EventSubscription,
  type SkillChangeEvent,
  type Logger,
} from '@skills/common';
import { indexedStateOf } from '../domain/indexed-state';
import type { SearchEngine } from '../engines/search-engine';
import type { DeadLetterRepository, NewDeadLetter } from '../store/dead-letter.repository';

/** The consumer group of the catalog indexer; its position is shared by every replica. */
export const INDEXER_GROUP = 'catalog-indexer';

export interface IndexerRetry {
  /** attempts of the whole batch, the first included, before poison events are looked for */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_INDEXER_RETRY: IndexerRetry = { attempts: 4, initialDelayMs: 250, maxDelayMs: 4_000 };

export interface IndexerOptions {
  eventLog: EventLog;
  engine: SearchEngine;
  logger: Logger;
  /** where poison events go; without it a failing batch is retried by the event log for ever */
  deadLetters?: DeadLetterRepository;
  retry?: Partial<IndexerRetry>;
  /** called with how many events were dead-lettered (metrics) */
  onDeadLetters?: (count: number) => void;
  /** injectable for tests */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Keeps the search read model in step with the system of record: every batch
 * of skill-change events becomes one `engine.apply`. The indexer, not the
 * event log, decides what is poison: a batch that keeps failing is split in
 * halves until the events that fail on their own are found; those go to the
 * dead-letter store with the reason and the rest is applied. Only when the
 * engine reports itself healthy and none of the failures says it is
 * unavailable (ServiceUnavailableError): during an outage every event fails
 * alone too, and then the handler rejects so the event log redelivers the
 * batch (its position does not move) instead of dead-lettering the stream.
 */
export class Indexer {
  private subscription: EventSubscription | undefined;
  private stopping = false;
  /** cuts a backoff wait short when stop() is called */
  private interrupt: (() => void) | undefined;
  private readonly retry: IndexerRetry;
  private readonly sleep: ((ms: number) => Promise<void>) | undefined;

  constructor(private readonly options: IndexerOptions) {
    this.retry = { ...DEFAULT_INDEXER_RETRY, ...options.retry };
    this.sleep = options.sleep;
  }

  async start(): Promise<void> {
    if (this.subscription) return;
    this.stopping = false;
    this.subscription = await this.options.eventLog.subscribe(INDEXER_GROUP, (events) => this.handle(events));
  }

  /** Returns once the batch in hand is applied (or abandoned mid-retry, to be redelivered). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.interrupt?.();
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
  }

  /** Events not yet indexed, when the event log can tell. */
  async lag(): Promise<number | undefined> {
    return this.subscription?.lag();
  }

  private async apply(events: SkillChangeEvent[]): Promise<void> {
    const result = await this.options.engine.apply(events.map(indexedStateOf));
    this.options.logger.debug({ events: events.length, ...result }, 'events indexed');
  }

  private async handle(events: SkillChangeEvent[]): Promise<void> {
    if (!this.options.deadLetters) return this.apply(events);
    const { attempts, initialDelayMs, maxDelayMs } = this.retry;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.apply(events);
      } catch (err) {
        this.options.logger.warn({ err, attempt, attempts, size: events.length }, 'indexing a batch failed');
        // Stopping: leave the batch unacknowledged; the next run gets it again.
        if (this.stopping) throw err;
        if (attempt >= attempts) break;
      }
      await this.pause(Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1)));
      if (this.stopping) throw new Error('indexer stopping: batch left for redelivery');
    }
    await this.isolate(events);
  }

  /** A backoff wait that stop() ends at once (the next attempt then gives the batch back). */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      // A cleared timer: an interrupted wait must not keep a stopping process alive.
      const timer = this.sleep ? undefined : setTimeout(resolve, ms);
      this.interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
      this.sleep?.(ms).then(resolve, resolve);
    }).finally(() => (this.interrupt = undefined));
  }

  private async isolate(events: SkillChangeEvent[]): Promise<void> {
    const poison: NewDeadLetter[] = [];
    await this.split(events, poison);
    if (poison.length === 0) return;
    const health = await this.options.engine.health().catch((err: Error) => ({ ok: false, reason: err.message }));
    if (!health.ok)
      throw new Error(`search engine unhealthy (${health.reason ?? 'no reason'}): batch left for redelivery`);
    await this.options.deadLetters?.add(INDEXER_GROUP, poison);
    this.options.logger.error(
      {
        count: poison.length,
        events: poison.map((p) => ({ eventId: p.event.eventId, itemId: p.event.itemId, reason: p.reason })),
      },
      'events dead-lettered',
    );
    this.options.onDeadLetters?.(poison.length);
  }

  /** Bisection: a batch of n with k poison events costs O(k log n) applies, not n. */
  private async split(events: SkillChangeEvent[], poison: NewDeadLetter[]): Promise<void> {
    try {
      await this.apply(events);
      return;
    } catch (err) {
      if (this.stopping) throw err;
      // The engine could not take writes now (an overloaded or recovering
      // cluster that still answers health checks): nothing here is poison.
      if (err instanceof ServiceUnavailableError) throw err;
      if (events.length === 1) {
        poison.push({ event: events[0], reason: errorText(err), attempts: this.retry.attempts + 1 });
        return;
      }
    }
    const middle = Math.ceil(events.length / 2);
    await this.split(events.slice(0, middle), poison);
    await this.split(events.slice(middle), poison);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
