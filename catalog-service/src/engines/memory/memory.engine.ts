/**
 * The default SearchEngine: each replica answers searches from its own
 * MemoryIndex; Postgres (ReadModelTable) keeps every state and version.
 *
 * - start: the index is loaded from the table before the replica is ready;
 * - apply (this replica's indexer): the table first (idempotent upsert), then
 *   the states it accepted go into the local index at once;
 * - every `pollMs` the replica reads what other replicas wrote
 *   (`changesSince`, late commits included) and applies it;
 * - reindex rebuilds the table and moves its epoch; every replica that sees
 *   the epoch move loads a new index and swaps it in, the old one answering
 *   meanwhile.
 * A write is therefore searchable on this replica when apply returns, and on
 * every other one within one poll (docs/search.md "Visibility").
 */
import type { CatalogItemState, Health, Logger } from '@skills/common';
import type { FollowPosition, ReadModelTable } from '../postgres/read-model.table';
import type { ApplyResult, ReindexProgress, SearchEngine, SearchQuery, SearchResult } from '../search-engine';
import { MemoryIndex } from './memory-index';
import type { MemoryIndexOptions } from './memory-index-options';
import { MemoryVectors, type MemoryVectorSettings } from './memory-vectors';

/** Rows per page when loading the index, and per follow read. */
const LOAD_PAGE = 10_000;
const FOLLOW_PAGE = 5_000;

export interface MemorySearchEngineOptions {
  table: ReadModelTable;
  logger: Logger;
  /** how often the table is read for other replicas' writes */
  pollMs: number;
  /** progress of the start-up load (documents loaded so far) */
  onLoadProgress?: (loaded: number) => void;
  /** the index's thresholds, where not the defaults (tests) */
  index?: Partial<MemoryIndexOptions>;
  /** item vectors of this model, when search by meaning is on */
  vectors?: MemoryVectorSettings;
}

export class MemorySearchEngine implements SearchEngine {
  private index: MemoryIndex;
  private position: FollowPosition | undefined;
  private epoch = '';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private lastError: Error | undefined;
  /** item vectors and their backlog, with a model */
  readonly vectors: MemoryVectors | undefined;

  constructor(private readonly options: MemorySearchEngineOptions) {
    this.index = new MemoryIndex(options.index);
    this.vectors = options.vectors ? new MemoryVectors(options.vectors, () => this.index) : undefined;
  }

  /** Loads the index, then follows the table. Resolves once the index holds every searchable item. */
  async start(): Promise<void> {
    await this.sync();
    this.schedule();
  }

  /** Moves whenever the index changed: cached answers are keyed by it. */
  get generation(): number {
    return this.index.generation + (this.vectors?.generation ?? 0);
  }

  /** Searchable documents held (metrics, the bench's "all searchable"). */
  get documents(): number {
    return this.index.size;
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    if (!query.meaning || !this.vectors) return this.index.search(query);
    return {
      ...this.index.search(query, this.vectors.neighbours(query, query.meaning), this.vectors.weights),
      mode: query.mode,
    };
  }

  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    const written = await this.options.table.upsert(items);
    this.take(this.index, written);
    this.compactIfSparse();
    return { applied: written.length, stale: items.length - written.length };
  }

  async reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    const result = await this.options.table.reindex(source, onProgress);
    // The swap moved the epoch: load the new table now rather than at the next poll.
    await this.sync();
    return result;
  }

  async health(): Promise<Health> {
    if (this.lastError)
      return { ok: false, reason: `search index cannot follow the read model: ${this.lastError.message}` };
    return this.options.table.health();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    await this.options.table.close();
  }

  /** One follow step (or a full load when the epoch moved), never two at once. */
  sync(): Promise<void> {
    const step = (this.running ?? Promise.resolve()).then(() => this.step());
    // The caller handles step's failure; the chain only orders steps and must never reject unhandled.
    const running: Promise<void> = step.then(
      () => undefined,
      () => undefined,
    );
    this.running = running;
    void running.then(() => {
      if (this.running === running) this.running = undefined;
    });
    return step;
  }

  private async step(): Promise<void> {
    const { table } = this.options;
    const epoch = await table.epoch();
    if (epoch !== this.epoch || !this.position) {
      await this.load(epoch);
      return;
    }
    for (;;) {
      const { states, next } = await table.changesSince(this.position, FOLLOW_PAGE);
      this.take(this.index, states);
      this.position = next;
      if (states.length < FOLLOW_PAGE) break;
    }
    this.compactIfSparse();
  }

  /**
   * A fresh index from the table. The follow position is taken first: a row
   * written while the pages are read is then read again by the follower
   * (applying it twice is harmless), never missed.
   */
  private async load(epoch: string): Promise<void> {
    const { table, logger } = this.options;
    const started = Date.now();
    const position = await table.followBound();
    const fresh = new MemoryIndex(this.options.index);
    for await (const page of table.searchable(LOAD_PAGE)) {
      this.take(fresh, page);
      this.options.onLoadProgress?.(fresh.size);
    }
    fresh.settle();
    fresh.succeed(this.index);
    this.index = fresh;
    this.position = position;
    this.epoch = epoch;
    logger.info({ documents: fresh.size, ms: Date.now() - started, epoch }, 'search index loaded');
    // Catch up with what was written during the load.
    await this.step();
  }

  /** States into a word index, and their vector needs into the backlog. */
  private take(index: MemoryIndex, states: readonly CatalogItemState[]): void {
    index.apply(states);
    this.vectors?.note(states);
  }

  /** Updates leave dead ordinals behind; rebuilding from the live documents returns their memory. */
  private compactIfSparse(): void {
    this.index = this.index.compacted();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.sync()
        .then(
          () => {
            if (this.lastError) this.options.logger.info('search index follows the read model again');
            this.lastError = undefined;
          },
          (err: unknown) => {
            if (!this.lastError) this.options.logger.warn({ err }, 'search index cannot read the read model; retrying');
            this.lastError = err instanceof Error ? err : new Error(String(err));
          },
        )
        .finally(() => this.schedule());
    }, this.options.pollMs);
    this.timer.unref();
  }
}
