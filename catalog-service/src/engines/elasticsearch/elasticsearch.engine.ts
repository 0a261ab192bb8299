/**
 * SearchEngine on Elasticsearch 8.11+ and 9.x. The only file that imports
 * the client, and the 8.x line of it: it sends
 * `application/vnd.elasticsearch+json; compatible-with=8`, which 8.x
 * servers take natively and 9.x servers through REST API compatibility,
 * where the 9.x client's `compatible-with=9` is refused by 8.x servers
 * (docs/elasticsearch.md "Supported versions").
 * Readers and writers use the alias (ELASTICSEARCH_INDEX); the data lives in
 * versioned indices `<alias>-v<epoch ms>`, so a reindex builds a new one and
 * swaps the alias atomically. Every write carries the item's version with
 * `version_type: external`, so Elasticsearch itself refuses an older state
 * (409), whatever order events arrive in.
 *
 * While a reindex builds its index, that index also carries the alias
 * `<alias>-reindex`, and every apply (in any replica) writes there first,
 * then through the main alias: an event indexed after the rebuild read its
 * page still reaches the new index, so nothing is lost at the swap. A
 * reindex whose process died leaves that alias behind; its heartbeat tells
 * (reindex-marker.ts), and the first replica to notice deletes its index
 * (index-rebuild.ts builds the new index and swaps the alias).
 */
import { createHash } from 'node:crypto';
import { Client, HttpConnection, type estypes } from '@elastic/elasticsearch';
import { ServiceUnavailableError, type CatalogItemState, type Health, type Logger } from '@skills/common';
import type { ApplyResult, ReindexProgress, SearchEngine, SearchQuery, SearchResult } from '../search-engine';
import {
  firstIndexName,
  INDEX_SCHEMA,
  indexDefinition,
  schemaOf,
  storesShownFieldsOnly,
  vectorModelOf,
  type VectorMapping,
} from './index-mapping';
import { ElasticsearchVectors } from './vector-target';
import type { ItemVectorRepository } from '../../store/item-vector.repository';
import { PUBLIC_SOURCE_FIELDS, type ItemDocument } from './item-document';
import { REINDEX_HEARTBEAT_MS, REINDEX_STALE_AFTER_MS } from './reindex-marker';
import { IndexRebuild } from './index-rebuild';
import { RESPONSE_FIELDS, searchIndex, type SearchIo } from './search-flow';
import { DEFAULT_RETRY, errorSummary, isRetryable, withRetry, type RetryPolicy } from './retry';
import type { SearchBody } from './query-builder';
import {
  ElasticsearchWriteError,
  isTransientFailure,
  writeBulk,
  type WriteFailure,
  type WriteOptions,
  type WriteOutcome,
} from './bulk-writer';
import { Compaction, DEFAULT_COMPACTION, type CompactionOptions } from './compaction';

export interface ElasticsearchEngineOptions {
  /** cluster URL (ELASTICSEARCH_URL) */
  node: string;
  /** the alias readers and writers use (ELASTICSEARCH_INDEX) */
  index: string;
  logger: Logger;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  /** node:http instead of undici; nock intercepts only node:http */
  httpConnection?: boolean;
  now?: () => Date;
  /** how often a running reindex renews its heartbeat (tests shorten it) */
  reindexHeartbeatMs?: number;
  /** a reindex marker whose heartbeat is older than this is abandoned */
  reindexStaleAfterMs?: number;
  /** when a bulk of writes is merged into one segment (compaction.ts) */
  compaction?: Partial<CompactionOptions>;
  /** item vectors of this model, when search by meaning is on (vector-target.ts) */
  vectors?: VectorMapping & { store: ItemVectorRepository };
}

export { ElasticsearchWriteError } from './bulk-writer';

/** A batch of at least this many items is refreshed at once rather than waiting for the scheduled refresh. */
export const REFRESH_NOW_ITEMS = 500;

export class ElasticsearchEngine implements SearchEngine {
  private readonly client: Client;
  private readonly alias: string;
  private readonly retry: RetryPolicy;
  private readonly logger: Logger;
  private readonly now: () => Date;
  /** the reindex that builds a new index behind the alias, whichever replica runs it (index-rebuild.ts) */
  private readonly rebuild: IndexRebuild;
  /** the live index was built by an older version of this code (init): it must be rebuilt to answer */
  private outdatedSchema: number | undefined;
  /**
   * An index behind the alias stores whole documents (made before `_source`
   * kept the shown fields only): searches then ask for the shown fields. Only
   * ever costs speed: a hit's fields are read by name either way.
   */
  private storesWholeDocuments = true;
  private readonly compaction: Compaction;
  /** the index holds no vectors of the configured model (init): it must be rebuilt to search by meaning */
  private otherVectorModel = false;
  readonly vectors: ElasticsearchVectors | undefined;

  constructor(private readonly options: ElasticsearchEngineOptions) {
    this.alias = options.index;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.logger = options.logger.child({ engine: 'elasticsearch', alias: options.index });
    this.now = options.now ?? (() => new Date());
    this.client = new Client({
      node: options.node,
      // one retry policy, ours (retry.ts): with backoff, and for 429 too
      maxRetries: 0,
      requestTimeout: options.requestTimeoutMs ?? 10_000,
      ...(options.httpConnection ? { Connection: HttpConnection } : {}),
    });
    this.compaction = new Compaction(this.client, this.alias, this.logger, {
      ...DEFAULT_COMPACTION,
      ...options.compaction,
    });
    const vectors = options.vectors;
    this.vectors = vectors
      ? new ElasticsearchVectors({
          client: this.client,
          alias: this.alias,
          model: vectors.model,
          store: vectors.store,
          write: (index, items, writeOptions) => this.write(index, items, writeOptions),
          holdsVectors: () => !this.otherVectorModel,
          retrying: (operation) => this.retrying(operation),
        })
      : undefined;
    this.rebuild = new IndexRebuild({
      client: this.client,
      alias: this.alias,
      logger: this.logger,
      now: this.now,
      heartbeatMs: options.reindexHeartbeatMs ?? REINDEX_HEARTBEAT_MS,
      staleAfterMs: options.reindexStaleAfterMs ?? REINDEX_STALE_AFTER_MS,
      definition: (meta) => this.definition(meta),
      write: (index, items, writeOptions) => this.write(index, items, writeOptions),
      knownVectors: async (items) => this.vectors?.known(items),
      retrying: (operation) => this.retrying(operation),
      aliasExists: (name) => this.aliasExists(name),
      aliasedIndices: () => this.aliasedIndices(),
      noteWritten: (count) => this.compaction.noteWritten(count),
    });
  }

  /** The index layout with this engine's vectors, if any. */
  private definition(meta: Record<string, string | number> = {}): ReturnType<typeof indexDefinition> {
    const vectors = this.options.vectors;
    return indexDefinition(meta, vectors ? { model: vectors.model, dimensions: vectors.dimensions } : undefined);
  }

  /**
   * Creates the first index behind the alias unless the alias exists, safely
   * when several replicas start together (they all try the same name; one
   * wins), notes an index of an older layout, and clears a reindex abandoned
   * by a process that died.
   */
  async init(): Promise<void> {
    if (await this.aliasExists(this.alias)) {
      await this.checkSchema();
      if (await this.rebuild.running()) await this.rebuild.clearAbandoned();
      return;
    }
    const index = firstIndexName(this.alias);
    try {
      await this.retrying(() =>
        this.client.indices.create({ index, ...this.definition(), aliases: { [this.alias]: {} } }),
      );
      this.logger.info({ index }, 'created index behind alias');
      this.storesWholeDocuments = false;
    } catch (err) {
      if (errorTypeOf(err) !== 'resource_already_exists_exception') throw err;
      // another replica created it a moment ago, alias included (one request)
      if (!(await this.aliasExists(this.alias))) {
        throw new Error(
          `index ${index} exists but the alias ${this.alias} does not point to it; add the alias or delete the index`,
          { cause: err },
        );
      }
    }
  }

  /**
   * Whether the live index must be rebuilt before it can answer: it was
   * built by an older version of this code, whose documents lack the terms
   * and weights the queries read. catalog-service starts the rebuild.
   */
  get needsRebuild(): boolean {
    return this.outdatedSchema !== undefined || this.otherVectorModel;
  }

  private async checkSchema(): Promise<void> {
    const res = await this.retrying(() => this.client.indices.getMapping({ index: this.alias }));
    const schemas = Object.values(res).map((entry) => schemaOf(entry.mappings));
    this.storesWholeDocuments = !Object.values(res).every((entry) => storesShownFieldsOnly(entry.mappings));
    const oldest = Math.min(...schemas);
    this.outdatedSchema = oldest < INDEX_SCHEMA ? oldest : undefined;
    if (this.outdatedSchema !== undefined) {
      this.logger.warn(
        { schema: oldest, current: INDEX_SCHEMA },
        'the index behind the alias has an older layout: searches find nothing until it is rebuilt',
      );
    }
    const model = this.options.vectors?.model;
    this.otherVectorModel =
      model !== undefined && Object.values(res).some((entry) => vectorModelOf(entry.mappings) !== model);
    if (this.otherVectorModel)
      this.logger.warn(
        { model },
        'the index behind the alias holds no vectors of this model: it is rebuilt, searching by words meanwhile',
      );
  }

  async search(asked: SearchQuery): Promise<SearchResult> {
    // an index without this model's vectors (being rebuilt) answers by words
    const query =
      this.otherVectorModel && asked.meaning ? { ...asked, mode: 'lexical' as const, meaning: undefined } : asked;
    const preference = preferenceOf(query);
    const shown = (): Pick<SearchBody, '_source'> =>
      this.storesWholeDocuments ? { _source: [...PUBLIC_SOURCE_FIELDS] } : {};
    const io: SearchIo = {
      search: (body: SearchBody) =>
        this.retrying(() =>
          this.client.search<Partial<ItemDocument>>({
            index: this.alias,
            preference,
            filter_path: RESPONSE_FIELDS,
            ...body,
            ...shown(),
          }),
        ),
      searchBoth: (first: SearchBody, second: SearchBody) =>
        this.retrying(async () => {
          const res = await this.client.msearch<Partial<ItemDocument>>({
            index: this.alias,
            searches: [{ preference }, { ...first, ...shown() }, { preference }, { ...second, ...shown() }],
            filter_path: [
              ...RESPONSE_FIELDS.map((field) => `responses.${field}`),
              'responses.error.type',
              'responses.error.reason',
              'responses.status',
            ],
          });
          const [a, b] = res.responses.map(searchOf);
          return [a!, b!];
        }),
    };
    try {
      const result = await searchIndex(io, query);
      return query === asked ? result : { ...result, mode: 'lexical' };
    } catch (err) {
      if (isRetryable(err)) throw new ServiceUnavailableError('upstream.unavailable', {}, { cause: err });
      throw err;
    }
  }

  /**
   * Writes into the index a reindex is building (if any) first, then through
   * the main alias. In that order, a swap in between cannot lose the write:
   * before the swap the new index gets it directly, after it through the
   * alias. A 404 from the reindex alias means the reindex just ended.
   */
  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    if (items.length === 0) return { applied: 0, stale: 0 };
    try {
      return await this.applyOnce(items);
    } catch (err) {
      // an unreachable, overloaded or restarting cluster: the batch waits for it, never a dead letter
      if (isRetryable(err)) throw new ServiceUnavailableError('upstream.unavailable', {}, { cause: err });
      throw err;
    }
  }

  private async applyOnce(items: CatalogItemState[]): Promise<ApplyResult> {
    // vectors the items' texts already have (never computed here: vector-target.ts)
    // an index without this model's vector field refuses documents carrying one (strict mapping)
    const vectors = this.otherVectorModel ? undefined : await this.vectors?.known(items);
    if ((await this.rebuild.running()) && !(await this.rebuild.abandoned())) {
      const shadow = await this.write(this.rebuild.alias, items, { requireAlias: true, vectors });
      const failures = shadow.failures.filter((f) => f.status !== 404);
      if (failures.length > 0) throw writeError(this.rebuild.alias, failures);
    }
    // Returns only once the write is searchable: the search cache bumps its
    // generation when apply returns, so an answer computed after that cannot
    // predate this write (without it, ~1 s of searches would be cached stale).
    // A large batch refreshes at once: waiting for the scheduled refresh made
    // an import's indexing wait up to 1 s per batch (2,000 items/s).
    const searchableBy = items.length >= REFRESH_NOW_ITEMS ? 'now' : 'wait_for';
    const result = await this.write(this.alias, items, { requireAlias: true, searchableBy, vectors });
    if (result.failures.length > 0) throw writeError(this.alias, result.failures);
    this.compaction.noteWritten(result.applied);
    return { applied: result.applied, stale: result.stale };
  }

  /** Rebuilds the index behind the alias (index-rebuild.ts); the new one has the current layout. */
  async reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    const progress = await this.rebuild.run(source, onProgress);
    this.outdatedSchema = undefined;
    this.otherVectorModel = false;
    this.storesWholeDocuments = false;
    return progress;
  }

  /**
   * The health of the indices behind the alias, not of the whole cluster:
   * another team's red index must not take this service out of rotation.
   * Green or yellow (a one-node cluster) is ready, red is not.
   * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-cluster-health
   */
  async health(): Promise<Health> {
    try {
      const res = await this.client.cluster.health({ index: this.alias }, { requestTimeout: 2_000 });
      return res.status === 'red' ? { ok: false, reason: `elasticsearch index ${this.alias} is red` } : { ok: true };
    } catch (err) {
      return { ok: false, reason: `elasticsearch unreachable: ${(err as Error).message}` };
    }
  }

  async close(): Promise<void> {
    this.compaction.close();
    await this.client.close();
  }
  private aliasExists(name: string): Promise<boolean> {
    return this.retrying(() => this.client.indices.existsAlias({ name }));
  }

  /** Indices the alias points to now ([] when it does not exist yet). */
  private async aliasedIndices(): Promise<string[]> {
    const res = await this.retrying(() =>
      this.client.indices.getAlias({ name: this.alias }, { ignore: [404], meta: true }),
    );
    if (res.statusCode === 404) return [];
    return Object.keys(res.body);
  }

  /**
   * One bulk write, retried as a whole on a 429/5xx of the request itself
   * (safe: external versions make a repeated write a 409, which a repeat
   * checks against the stored version).
   */
  private write(index: string, items: CatalogItemState[], options: WriteOptions): Promise<WriteOutcome> {
    let attempts = 0;
    return this.retrying(() =>
      writeBulk(this.client, index, items, this.retry, { ...options, repeated: attempts++ > 0 }),
    );
  }

  private retrying<T>(operation: () => Promise<T>): Promise<T> {
    return withRetry(this.retry, operation, (err, attempt) =>
      this.logger.warn({ ...errorSummary(err), attempt }, 'elasticsearch request failed; retrying'),
    );
  }
}

/**
 * Items refused for what they are fail as such (the indexer may dead-letter
 * them); items still refused with a 429 or 5xx after the writer's retries
 * mean the cluster cannot take writes now: unavailable, so the batch is
 * redelivered rather than dead-lettered.
 */
function writeError(index: string, failures: WriteFailure[]): Error {
  const error = new ElasticsearchWriteError(index, failures);
  return failures.every(isTransientFailure)
    ? new ServiceUnavailableError('upstream.unavailable', {}, { cause: error })
    : error;
}

/**
 * One answer of an `_msearch`: a search that failed there is an item of its
 * own (`error`, `status`), thrown here as the client throws a failed
 * `_search`, so a 429 or 5xx is retried the same way (retry.ts statusOf).
 * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-msearch
 */
function searchOf(
  item: estypes.MsearchResponseItem<Partial<ItemDocument>>,
): estypes.SearchResponse<Partial<ItemDocument>> {
  if (!('error' in item)) return item;
  const error = new Error(`elasticsearch _msearch item failed: ${item.error.type} ${item.error.reason ?? ''}`);
  throw Object.assign(error, { meta: { statusCode: item.status, body: { error: item.error } } });
}

/** Elasticsearch's error type (`resource_already_exists_exception`, ...) of a refused request. */
function errorTypeOf(err: unknown): string | undefined {
  const body = (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body;
  return body?.error?.type;
}

/**
 * Routes the requests of one query (its pages, its steps) to the same shard
 * copies while the cluster does not change, so consecutive pages are read
 * from one copy. A custom string, not starting with `_`:
 * https://elastic.co/docs/reference/elasticsearch/rest-apis/search-shard-routing
 */
export function preferenceOf(query: SearchQuery): string {
  return `q:${createHash('sha256')
    .update(JSON.stringify([query.q ?? '', query.category ?? '', query.type ?? '', query.tags ?? [], query.sort]))
    .digest('hex')
    .slice(0, 16)}`;
}
