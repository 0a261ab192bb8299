import { LruCache, type CatalogItemState, type Health, type Logger } from '@skills/common';
import type {
  ApplyResult,
  ItemVectorTarget,
  ReindexProgress,
  SearchEngine,
  SearchQuery,
  SearchResult,
} from '../engines/search-engine';
import { cacheKeyOf, normaliseQuery } from './cache-key';
import type { IndexGeneration, LocalGeneration } from './index-generation';

export interface SearchCacheSettings {
  /** entries kept; 0 turns the cache off (writes still bump the generation for other replicas) */
  maxEntries: number;
  /** approximate bytes kept (JSON size of the answers) */
  maxBytes: number;
  /** an entry is dropped this long after it was stored, whatever the generation says */
  ttlMs: number;
  /** how often catalog.index_generation is read */
  pollMs: number;
}

export interface SearchCacheObserver {
  hit(): void;
  miss(): void;
  /** answered by the engine because the generation is not known to be current */
  bypass(): void;
}

export interface CachingSearchEngineOptions extends SearchCacheSettings {
  engine: SearchEngine;
  /** shared (catalog.index_generation, polled) or the engine's own (keys carry it, nothing to poll) */
  generation: IndexGeneration | LocalGeneration;
  logger: Logger;
  observer?: SearchCacheObserver;
  now?: () => number;
}

/**
 * A search answer cache in front of any SearchEngine that never hides a
 * write for longer than the index lag plus one generation poll:
 * - every change made through this engine (apply, reindex) empties the local
 *   cache at once and bumps catalog.index_generation for the other replicas;
 * - every replica polls the generation and empties its cache when it moved;
 * - the cache answers only while the last successful poll began less than
 *   4 poll intervals ago (a failing or stuck poll means "maybe stale": the
 *   engine answers until a poll succeeds again);
 * - an answer that was being computed when the cache was emptied is handed
 *   to its callers but not stored (it may predate the change).
 * Concurrent identical misses share one engine call (single flight).
 * With a LocalGeneration (the memory engine) none of the polling applies:
 * every key carries the engine's generation, so an answer is never looked up
 * again once the index changed.
 */
export class CachingSearchEngine implements SearchEngine {
  private readonly cache: LruCache<SearchResult>;
  private readonly flights = new Map<string, Promise<SearchResult>>();
  private readonly now: () => number;
  /** bumped by every local clear: a flight started in an older epoch is not stored */
  private epoch = 0;
  private known: number | undefined;
  private lastGoodPollStartedAt = Number.NEGATIVE_INFINITY;
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private vectorTarget: ItemVectorTarget | undefined;

  constructor(private readonly options: CachingSearchEngineOptions) {
    this.now = options.now ?? Date.now;
    this.cache = new LruCache({
      maxEntries: options.maxEntries,
      maxBytes: options.maxBytes,
      ttlMs: options.ttlMs,
      now: this.now,
    });
  }

  get enabled(): boolean {
    return this.options.maxEntries > 0;
  }

  /** Reads the generation once, then keeps polling it (no-op when the cache is off). */
  async start(): Promise<void> {
    if (!this.enabled || this.polling || this.local) return;
    this.polling = true;
    await this.poll();
    this.schedule();
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const normalised = normaliseQuery(query);
    const { engine, observer } = this.options;
    if (!this.enabled) return engine.search(normalised);
    if (!this.current()) {
      observer?.bypass();
      return engine.search(normalised);
    }
    const generation = this.local?.current();
    const key = generation === undefined ? cacheKeyOf(normalised) : `${cacheKeyOf(normalised)}#${generation}`;
    const cached = this.cache.get(key) ?? this.flights.get(key);
    if (cached) {
      observer?.hit();
      return cached;
    }
    observer?.miss();
    const epoch = this.epoch;
    const flight: Promise<SearchResult> = engine
      .search(normalised)
      .then((result) => {
        if (epoch === this.epoch && this.current() && this.local?.current() === generation) {
          const frozen = freeze(result);
          this.cache.set(key, frozen, frozen.itemsJson?.length ?? JSON.stringify(frozen).length);
          return frozen;
        }
        return result;
      })
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    this.flights.set(key, flight);
    return flight;
  }

  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    const result = await this.options.engine.apply(items);
    // even an all-stale batch bumps: it may be the redelivery of a batch whose bump failed
    if (items.length > 0) await this.changed();
    return result;
  }

  async reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    const result = await this.options.engine.reindex(source, onProgress);
    await this.changed();
    return result;
  }

  /** The engine's vector target, whose attached vectors change answers as a write does. */
  get vectors(): ItemVectorTarget | undefined {
    const target = this.options.engine.vectors;
    if (!target) return undefined;
    return (this.vectorTarget ??= {
      model: target.model,
      missing: (limit) => target.missing(limit),
      progress: () => target.progress(),
      attach: async (vectors) => {
        const taken = await target.attach(vectors);
        if (taken > 0) await this.changed();
        return taken;
      },
    });
  }

  health(): Promise<Health> {
    return this.options.engine.health();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.clear();
    await this.options.engine.close();
  }

  /** Entries held now (metrics, tests). */
  get size(): number {
    return this.cache.size;
  }

  /**
   * After a change committed: forget local answers at once, then tell the
   * other replicas. A failing bump rejects, so the indexer redelivers the
   * batch (apply is idempotent) and the bump is tried again.
   */
  private async changed(): Promise<void> {
    this.clear();
    if (this.local) return;
    const generation = await (this.options.generation as IndexGeneration).bump();
    this.clear();
    this.known = generation;
  }

  private clear(): void {
    this.epoch++;
    this.cache.clear();
    this.flights.clear();
  }

  /** The engine's own generation, when it has one. */
  private get local(): LocalGeneration | undefined {
    const { generation } = this.options;
    return 'current' in generation ? generation : undefined;
  }

  private current(): boolean {
    if (this.local) return true;
    return this.now() - this.lastGoodPollStartedAt <= 4 * this.options.pollMs;
  }

  /** Polls start every pollMs (not pollMs after the last one ended), so a slow query does not stretch the interval. */
  private schedule(previousStart = this.now()): void {
    if (this.closed) return;
    const wait = Math.max(0, previousStart + this.options.pollMs - this.now());
    this.timer = setTimeout(() => {
      const start = this.now();
      void this.poll().finally(() => this.schedule(start));
    }, wait);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const startedAt = this.now();
    const wasCurrent = this.current();
    try {
      const generation = await (this.options.generation as IndexGeneration).read();
      // After an outage the old entries may have missed a change: start over.
      if (generation !== this.known || !wasCurrent) this.clear();
      this.known = generation;
      this.lastGoodPollStartedAt = startedAt;
    } catch (err) {
      if (wasCurrent && !this.closed)
        this.options.logger.warn({ err }, 'index generation unreadable: search cache bypassed until it is');
      this.lastGoodPollStartedAt = Number.NEGATIVE_INFINITY;
    }
  }
}

/** Cached answers are shared by every caller: make an accidental mutation throw instead of corrupting them. */
function freeze(result: SearchResult): SearchResult {
  for (const item of result.items) {
    Object.freeze(item.tags);
    Object.freeze(item);
  }
  Object.freeze(result.items);
  return Object.freeze(result);
}
