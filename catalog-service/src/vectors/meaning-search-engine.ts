/**
 * Search by meaning in front of an engine: decides the mode a search runs
 * in (domain/hybrid-ranking.ts), embeds the query when it needs a vector
 * (cached by text, a bounded LRU) and hands the engine the query with it.
 * Without a model every search is lexical; a model too busy to embed a
 * query now (its queue full) leaves that one search lexical too, and the
 * answer says so (`mode`).
 */
import { LruCache, type CatalogItemState, type Health, type Logger } from '@skills/common';
import { modeToRun } from '../domain/hybrid-ranking';
import type { TextEmbedder } from '../embedding/text-embedder';
import type {
  ApplyResult,
  ItemVectorTarget,
  ReindexProgress,
  SearchEngine,
  SearchQuery,
  SearchResult,
} from '../engines/search-engine';

/** Query vectors kept (384 float32 are 1.5 KB: 10,000 of them ~16 MB). */
export const QUERY_VECTORS_KEPT = 10_000;

export interface MeaningSearchEngineOptions {
  engine: SearchEngine;
  /** absent: search stays lexical */
  embedder?: TextEmbedder;
  logger: Logger;
  /** query vectors cached (QUERY_VECTORS_KEPT) */
  cached?: number;
}

export class MeaningSearchEngine implements SearchEngine {
  private readonly engine: SearchEngine;
  private readonly cache: LruCache<Float32Array>;
  private warnedBusy = false;

  constructor(private readonly options: MeaningSearchEngineOptions) {
    this.engine = options.engine;
    const entries = options.cached ?? QUERY_VECTORS_KEPT;
    this.cache = new LruCache({ maxEntries: entries, maxBytes: entries * 4 * 1024, ttlMs: 24 * 3_600_000 });
  }

  get vectors(): ItemVectorTarget | undefined {
    return this.options.embedder ? this.engine.vectors : undefined;
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const mode = modeToRun(query.mode, query.q, this.vectors !== undefined);
    // no vector: the mode says lexical, or the model could not take the query now
    const meaning = mode !== 'lexical' && query.q !== undefined ? await this.queryVector(query.q) : undefined;
    if (!meaning) return { ...(await this.engine.search({ ...query, mode: 'lexical' })), mode: 'lexical' };
    const result = await this.engine.search({ ...query, mode, meaning });
    // an engine that could not use the vector (an index being rebuilt) says it ran lexical
    return { ...result, mode: result.mode ?? mode };
  }

  apply(items: CatalogItemState[]): Promise<ApplyResult> {
    return this.engine.apply(items);
  }

  reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    return this.engine.reindex(source, onProgress);
  }

  health(): Promise<Health> {
    return this.engine.health();
  }

  async close(): Promise<void> {
    await this.engine.close();
  }

  /** The query's vector, from the cache or the model; undefined when the model cannot take it now. */
  private async queryVector(q: string): Promise<Float32Array | undefined> {
    const key = q.trim().replace(/\s+/g, ' ').toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    try {
      const [vector] = await this.options.embedder!.embedQueries([key]);
      if (!vector) return undefined;
      this.cache.set(key, vector, vector.byteLength);
      return vector;
    } catch (err) {
      if (!this.warnedBusy)
        this.options.logger.warn(
          { err },
          'the embedding model could not take a query: those searches run on words alone',
        );
      this.warnedBusy = true;
      return undefined;
    }
  }
}
