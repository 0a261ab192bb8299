/**
 * SearchEngine on Elasticsearch 9.x. The only file that imports the client.
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
 * (reindex-marker.ts), and the first replica to notice deletes its index.
 */
import { Client, HttpConnection, type estypes } from '@elastic/elasticsearch';
import { ServiceUnavailableError, type CatalogItemState, type Health, type Logger } from '@skills/common';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { editDistanceWithin, typoBudget } from '../../domain/spelling';
import {
  SUGGEST_BELOW,
  type ApplyResult,
  type CatalogItem,
  type FacetField,
  type Facets,
  type ReindexProgress,
  type SearchEngine,
  type SearchQuery,
  type SearchResult,
  type Suggestion,
} from '../search-engine';
import { addedProperties, firstIndexName, indexDefinition, reindexAliasOf, swapAliasActions, toDocument, versionedIndexName } from './index-mapping';
import { abandonedIndices, heartbeatMeta, REINDEX_HEARTBEAT_MS, REINDEX_STALE_AFTER_MS, type MarkerMappings } from './reindex-marker';
import { buildSearchRequest, buildSuggestRequest, wordsOf } from './query-builder';
import { DEFAULT_RETRY, isRetryable, statusOf, withRetry, type RetryPolicy } from './retry';

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
}

/** One item Elasticsearch refused for a reason other than a stale version. */
export interface WriteFailure {
  id: string;
  status: number;
  reason: string;
}

/** A bulk write left items unwritten; the others were written. */
export class ElasticsearchWriteError extends Error {
  constructor(readonly index: string, readonly failures: WriteFailure[]) {
    super(`Elasticsearch refused ${failures.length} item(s) in ${index}: ${failures.slice(0, 5).map((f) => `${f.id} (${f.status} ${f.reason})`).join(', ')}`);
    this.name = 'ElasticsearchWriteError';
  }
}

interface WriteOptions {
  /** refuse (404) instead of creating an index when the target alias is gone */
  requireAlias?: boolean;
  /** answer only once the written documents are searchable */
  waitForRefresh?: boolean;
}

interface WriteOutcome extends ApplyResult {
  failures: WriteFailure[];
}

export class ElasticsearchEngine implements SearchEngine {
  private readonly client: Client;
  private readonly alias: string;
  private readonly retry: RetryPolicy;
  private readonly logger: Logger;
  private readonly now: () => Date;
  /** alias of the index a reindex is filling, whichever replica runs it */
  private readonly reindexAlias: string;
  /** when this replica last read the reindex marker's heartbeat (epoch ms) */
  private lastMarkerCheck = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ElasticsearchEngineOptions) {
    this.alias = options.index;
    this.reindexAlias = reindexAliasOf(options.index);
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
  }

  /**
   * Creates the first index behind the alias unless the alias exists, safely
   * when several replicas start together (they all try the same name; one
   * wins), and clears a reindex abandoned by a process that died.
   */
  async init(): Promise<void> {
    if (await this.aliasExists(this.alias)) {
      // An index made before the registry details gains their fields (idempotent when it has them).
      await this.retrying(() => this.client.indices.putMapping({ index: this.alias, properties: addedProperties() as Record<string, estypes.MappingProperty> }));
      if (await this.aliasExists(this.reindexAlias)) await this.clearAbandonedReindex();
      return;
    }
    const index = firstIndexName(this.alias);
    try {
      await this.retrying(() => this.client.indices.create({ index, ...indexDefinition(), aliases: { [this.alias]: {} } }));
      this.logger.info({ index }, 'created index behind alias');
    } catch (err) {
      if (errorTypeOf(err) !== 'resource_already_exists_exception') throw err;
      // another replica created it a moment ago, alias included (one request)
      if (!(await this.aliasExists(this.alias))) {
        throw new Error(`index ${index} exists but the alias ${this.alias} does not point to it; add the alias or delete the index`, { cause: err });
      }
    }
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    try {
      const result = await this.find(query);
      if (query.q?.trim() && result.total < SUGGEST_BELOW) {
        const suggestion = await this.suggest(query, result.total);
        if (suggestion) result.suggestion = suggestion;
      }
      return result;
    } catch (err) {
      if (isRetryable(err)) throw new ServiceUnavailableError('upstream.unavailable', {}, { cause: err });
      throw err;
    }
  }

  private async find(query: SearchQuery): Promise<SearchResult> {
    // the body is built and tested as plain JSON; the client's types are stricter than the DSL needs
    const body = buildSearchRequest(query) as unknown as Omit<estypes.SearchRequest, 'index'>;
    const res = await this.retrying(() => this.client.search<ItemSource>({ index: this.alias, ...body }));
    const total = res.hits.total;
    const result: SearchResult = {
      items: res.hits.hits.map((hit) => toCatalogItem(hit._source)),
      total: typeof total === 'number' ? total : (total?.value ?? 0),
    };
    if (query.facets) result.facets = facetsOf(query.facets, res.aggregations);
    return result;
  }

  /**
   * The term suggester's spellings, filtered by the typo rules every engine
   * applies; when they change the query and the new one finds more, its
   * total is counted (one more search of one hit).
   */
  private async suggest(query: SearchQuery, total: number): Promise<Suggestion | undefined> {
    const q = (query.q ?? '').trim();
    const res = await this.retrying(() =>
      this.client.search({ index: this.alias, ...(buildSuggestRequest(q) as unknown as Omit<estypes.SearchRequest, 'index'>) }),
    );
    const corrected = correctedQuery(q, res.suggest as SuggestReply | undefined);
    if (corrected === undefined) return undefined;
    const found = await this.find({ ...query, q: corrected, page: 1, limit: 1, facets: undefined });
    return found.total > total ? { q: corrected, total: found.total } : undefined;
  }

  /**
   * Writes into the index a reindex is building (if any) first, then through
   * the main alias. In that order, a swap in between cannot lose the write:
   * before the swap the new index gets it directly, after it through the
   * alias. A 404 from the reindex alias means the reindex just ended.
   */
  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    if (items.length === 0) return { applied: 0, stale: 0 };
    if ((await this.aliasExists(this.reindexAlias)) && !(await this.reindexAbandoned())) {
      const shadow = await this.write(this.reindexAlias, items, { requireAlias: true });
      const failures = shadow.failures.filter((f) => f.status !== 404);
      if (failures.length > 0) throw new ElasticsearchWriteError(this.reindexAlias, failures);
    }
    // Returns only once the write is searchable: the search cache bumps its
    // generation when apply returns, so an answer computed after that cannot
    // predate this write (without it, ~1 s of searches would be cached stale).
    const result = await this.write(this.alias, items, { waitForRefresh: true });
    if (result.failures.length > 0) throw new ElasticsearchWriteError(this.alias, result.failures);
    return { applied: result.applied, stale: result.stale };
  }

  /**
   * New index → every page of `source` → refresh → one `_aliases` call that
   * removes the old indices and adds the new one (atomic for readers) →
   * delete the old indices. Searches use the old index until the swap. On
   * failure the new index is dropped and the alias is left untouched.
   */
  async reindex(source: AsyncIterable<CatalogItemState[]>, onProgress?: (p: ReindexProgress) => void): Promise<ReindexProgress> {
    if ((await this.aliasExists(this.reindexAlias)) && !(await this.clearAbandonedReindex())) {
      throw new Error(`a reindex is already building an index behind ${this.reindexAlias}`);
    }
    const target = versionedIndexName(this.alias, this.now());
    // the reindex alias comes with the index, so writes reach it before the first page is read
    await this.retrying(() =>
      this.client.indices.create({ index: target, ...indexDefinition({ ...heartbeatMeta(this.now()) }), aliases: { [this.reindexAlias]: {} } }),
    );
    this.logger.info({ index: target }, 'reindex started');
    const heartbeat = setInterval(() => void this.beat(target), this.options.reindexHeartbeatMs ?? REINDEX_HEARTBEAT_MS);
    try {
      return await this.fillAndSwap(target, source, onProgress);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fillAndSwap(target: string, source: AsyncIterable<CatalogItemState[]>, onProgress?: (p: ReindexProgress) => void): Promise<ReindexProgress> {
    let indexed = 0;
    let previous: string[] = [];
    let swapSent = false;
    try {
      for await (const page of source) {
        const outcome = await this.write(target, page);
        if (outcome.failures.length > 0) throw new ElasticsearchWriteError(target, outcome.failures);
        indexed += page.length;
        onProgress?.({ indexed });
      }
      await this.retrying(() => this.client.indices.refresh({ index: target }));
      previous = await this.aliasedIndices();
      swapSent = true;
      await this.retrying(() => this.client.indices.updateAliases({ actions: swapAliasActions(this.alias, previous, target) }));
    } catch (err) {
      // a swap whose answer was lost may have happened: then the new index is live and must stay
      const live = swapSent && (await this.aliasedIndices().catch((): string[] => [])).includes(target);
      if (!live) {
        // deleting the index drops its reindex alias with it
        await this.client.indices
          .delete({ index: target }, { ignore: [404] })
          .catch((cleanupErr: unknown) => this.logger.warn({ ...summary(cleanupErr), index: target }, 'could not delete the abandoned index'));
        throw err;
      }
    }
    this.logger.info({ index: target, previous, indexed }, 'alias swapped');
    if (previous.length > 0) {
      // a leftover index wastes disk but serves nobody; never fail the reindex for it
      await this.retrying(() => this.client.indices.delete({ index: previous }))
        .catch((err: unknown) => this.logger.warn({ ...summary(err), indices: previous }, 'could not delete the previous index'));
    }
    return { indexed };
  }

  /** Cluster health: green or yellow (a one-node cluster) is ready, red is not. */
  async health(): Promise<Health> {
    try {
      const res = await this.client.cluster.health({}, { requestTimeout: 2_000 });
      return res.status === 'red' ? { ok: false, reason: 'elasticsearch cluster is red' } : { ok: true };
    } catch (err) {
      return { ok: false, reason: `elasticsearch unreachable: ${(err as Error).message}` };
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Renews the heartbeat of the reindex building `index`; a missed beat is only logged. */
  private async beat(index: string): Promise<void> {
    try {
      await this.client.indices.putMapping({ index, _meta: { ...heartbeatMeta(this.now()) } });
    } catch (err) {
      this.logger.warn({ ...summary(err), index }, 'could not renew the reindex heartbeat');
    }
  }

  /**
   * Deletes the indices behind the reindex alias whose heartbeat stopped
   * (never one readers use). True when no reindex is running any more.
   */
  private async clearAbandonedReindex(): Promise<boolean> {
    this.lastMarkerCheck = this.now().getTime();
    const res = await this.retrying(() => this.client.indices.getMapping({ index: this.reindexAlias }, { ignore: [404], meta: true }));
    if (res.statusCode === 404) return true;
    const marked = res.body as unknown as MarkerMappings;
    const abandoned = abandonedIndices(marked, this.now(), this.options.reindexStaleAfterMs ?? REINDEX_STALE_AFTER_MS);
    if (abandoned.length === 0) return false;
    const live = await this.aliasedIndices();
    const doomed = abandoned.filter((index) => !live.includes(index));
    if (doomed.length > 0) {
      await this.retrying(() => this.client.indices.delete({ index: doomed }, { ignore: [404] }));
      this.logger.warn({ indices: doomed }, 'deleted the index of an abandoned reindex');
    }
    return doomed.length === Object.keys(marked).length;
  }

  /**
   * Whether the reindex marker apply just saw is abandoned. Asked at most
   * once per heartbeat interval: in between, a marker counts as live (the
   * safe side: an extra write into an index that may be deleted).
   */
  private async reindexAbandoned(): Promise<boolean> {
    const every = this.options.reindexHeartbeatMs ?? REINDEX_HEARTBEAT_MS;
    if (this.now().getTime() - this.lastMarkerCheck < every) return false;
    return this.clearAbandonedReindex();
  }

  private aliasExists(name: string): Promise<boolean> {
    return this.retrying(() => this.client.indices.existsAlias({ name }));
  }

  /** Indices the alias points to now ([] when it does not exist yet). */
  private async aliasedIndices(): Promise<string[]> {
    const res = await this.retrying(() => this.client.indices.getAlias({ name: this.alias }, { ignore: [404], meta: true }));
    if (res.statusCode === 404) return [];
    return Object.keys(res.body);
  }

  /**
   * One bulk-helper run, retried as a whole on a 429/5xx of the request
   * itself (safe: external versions make a repeated write a 409). Item-level
   * 429s the helper retries itself; every other refused item reaches onDrop,
   * where a 409 is a stale version (skipped, counted) and anything else a
   * failure. Client helpers:
   * https://elastic.co/docs/reference/elasticsearch/clients/javascript/client-helpers
   */
  private write(index: string, items: CatalogItemState[], options: WriteOptions = {}): Promise<WriteOutcome> {
    if (items.length === 0) return Promise.resolve({ applied: 0, stale: 0, failures: [] });
    return this.retrying(async () => {
      let stale = 0;
      const failures: WriteFailure[] = [];
      const stats = await this.client.helpers.bulk<CatalogItemState>({
        datasource: items,
        // Bulk API with external versioning: the write wins only if its version is higher
        // https://elastic.co/guide/en/elasticsearch/reference/8.18/docs-bulk.html
        onDocument: (item) => [{ index: { _index: index, _id: item.id, version: item.version, version_type: 'external' } }, toDocument(item)],
        onDrop: (dropped) => {
          if (dropped.status === 409) {
            stale += 1;
            return;
          }
          failures.push({ id: dropped.document.id, status: dropped.status, reason: dropped.error?.reason ?? dropped.error?.type ?? 'rejected' });
        },
        retries: this.retry.retries,
        wait: this.retry.baseDelayMs,
        concurrency: 1,
        // never let a write to a vanished reindex alias auto-create an index of that name
        ...(options.requireAlias ? { require_alias: true } : {}),
        // waits for the next scheduled refresh (index.refresh_interval, 1 s) rather than forcing one:
        // https://elastic.co/docs/reference/elasticsearch/rest-apis/refresh-parameter
        ...(options.waitForRefresh ? { refresh: 'wait_for' as const } : {}),
      });
      return { applied: stats.successful, stale, failures };
    });
  }

  private retrying<T>(operation: () => Promise<T>): Promise<T> {
    return withRetry(this.retry, operation, (err, attempt) =>
      this.logger.warn({ ...summary(err), attempt }, 'elasticsearch request failed; retrying'),
    );
  }
}

/** Status and message only: the client's errors carry the whole request, documents included. */
function summary(err: unknown): { status?: number; error: string } {
  return { status: statusOf(err), error: err instanceof Error ? err.message : String(err) };
}

/** Elasticsearch's error type (`resource_already_exists_exception`, ...) of a refused request. */
function errorTypeOf(err: unknown): string | undefined {
  const body = (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body;
  return body?.error?.type;
}

/** A hit's `_source`: the public fields under their index names (ItemDocument). */
type ItemSource = Partial<Omit<CatalogItem, 'version'>> & { release?: string | null; slug?: string | null; category?: string | null };

function toCatalogItem(source: ItemSource | undefined): CatalogItem {
  const s = source ?? {};
  return {
    id: s.id ?? '',
    slug: s.slug ?? '',
    name: s.name ?? '',
    description: s.description ?? '',
    type: s.type ?? 'skill',
    category: s.category ?? '',
    tags: s.tags ?? [],
    publisher: s.publisher ?? null,
    version: s.release ?? null,
    license: s.license ?? null,
    repositoryUrl: s.repositoryUrl ?? null,
    homepageUrl: s.homepageUrl ?? null,
    downloads: s.downloads ?? 0,
    updatedAt: s.updatedAt ?? '',
  };
}

interface TermsAggregation {
  buckets?: Array<{ key: string; doc_count: number }>;
}

/** Bucket counts as facets, capped like `total` (a terms aggregation counts every match). */
function facetsOf(fields: readonly FacetField[], aggregations: Record<string, unknown> | undefined): Facets {
  const facets: Facets = {};
  for (const field of fields) {
    const buckets = (aggregations?.[field] as TermsAggregation | undefined)?.buckets ?? [];
    facets[field] = buckets.map((b) => ({ value: String(b.key), count: Math.min(b.doc_count, MAX_RESULT_WINDOW) }));
  }
  return facets;
}

type SuggestReply = Record<string, Array<{ text: string; options?: Array<{ text: string; freq: number }> }>>;

/**
 * Each word of `q` replaced by its most frequent spelling, from either
 * field, within the word's typo budget; undefined when no word changes.
 */
function correctedQuery(q: string, suggest: SuggestReply | undefined): string | undefined {
  const best = new Map<string, { text: string; freq: number }>();
  for (const entries of Object.values(suggest ?? {})) {
    for (const entry of entries) {
      const word = entry.text.toLowerCase();
      for (const option of entry.options ?? []) {
        if (!editDistanceWithin(word, option.text, typoBudget(word))) continue;
        const held = best.get(word);
        if (!held || option.freq > held.freq || (option.freq === held.freq && option.text < held.text)) best.set(word, option);
      }
    }
  }
  if (best.size === 0) return undefined;
  // the words as the suggester's standard analyzer split them
  return wordsOf(q)
    .map((word) => best.get(word)?.text ?? word)
    .join(' ');
}
