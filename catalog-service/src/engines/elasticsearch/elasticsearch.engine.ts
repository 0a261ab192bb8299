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
 * page still reaches the new index, so nothing is lost at the swap.
 */
import { Client, HttpConnection, type estypes } from '@elastic/elasticsearch';
import { ServiceUnavailableError, type CatalogItemState, type Health, type Logger } from '@skills/common';
import type { ApplyResult, CatalogItem, ReindexProgress, SearchEngine, SearchQuery, SearchResult } from '../search-engine';
import { indexDefinition, reindexAliasOf, swapAliasActions, toDocument, versionedIndexName } from './index-mapping';
import { buildSearchRequest } from './query-builder';
import { DEFAULT_RETRY, isRetryable, statusOf, withRetry, type RetryPolicy } from './retry';

export interface ElasticsearchEngineOptions {
  /** cluster URL (ELASTICSEARCH_URL) */
  node: string;
  /** the alias readers and writers use (ELASTICSEARCH_INDEX) */
  index: string;
  logger: Logger;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  /** `wait_for`: a write returns once searchable (live tests); default: no refresh */
  refreshOnWrite?: boolean;
  /** node:http instead of undici; nock intercepts only node:http */
  httpConnection?: boolean;
  now?: () => Date;
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

  /** Creates the first versioned index behind the alias unless the alias exists. */
  async init(): Promise<void> {
    const exists = await this.retrying(() => this.client.indices.existsAlias({ name: this.alias }));
    if (exists) return;
    const index = versionedIndexName(this.alias, this.now());
    await this.retrying(() => this.client.indices.create({ index, ...indexDefinition(), aliases: { [this.alias]: {} } }));
    this.logger.info({ index }, 'created index behind alias');
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    // the body is built and tested as plain JSON; the client's types are stricter than the DSL needs
    const body = buildSearchRequest(query) as unknown as Omit<estypes.SearchRequest, 'index'>;
    try {
      const res = await this.retrying(() => this.client.search<CatalogItem>({ index: this.alias, ...body }));
      const total = res.hits.total;
      return {
        items: res.hits.hits.map((hit) => toCatalogItem(hit._source)),
        total: typeof total === 'number' ? total : (total?.value ?? 0),
      };
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
    if (await this.aliasExists(this.reindexAlias)) {
      const shadow = await this.write(this.reindexAlias, items, true);
      const failures = shadow.failures.filter((f) => f.status !== 404);
      if (failures.length > 0) throw new ElasticsearchWriteError(this.reindexAlias, failures);
    }
    const result = await this.write(this.alias, items);
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
    if (await this.aliasExists(this.reindexAlias)) throw new Error(`a reindex is already building an index behind ${this.reindexAlias}`);
    const target = versionedIndexName(this.alias, this.now());
    // the reindex alias comes with the index, so writes reach it before the first page is read
    await this.retrying(() => this.client.indices.create({ index: target, ...indexDefinition(), aliases: { [this.reindexAlias]: {} } }));
    this.logger.info({ index: target }, 'reindex started');
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
  private write(index: string, items: CatalogItemState[], requireAlias = false): Promise<WriteOutcome> {
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
        ...(requireAlias ? { require_alias: true } : {}),
        ...(this.options.refreshOnWrite ? { refresh: 'wait_for' as const } : {}),
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

function toCatalogItem(source: CatalogItem | undefined): CatalogItem {
  const s = (source ?? {}) as Partial<CatalogItem> & { slug?: string | null; category?: string | null };
  return {
    id: s.id ?? '',
    slug: s.slug ?? '',
    name: s.name ?? '',
    description: s.description ?? '',
    type: s.type ?? 'skill',
    category: s.category ?? '',
    tags: s.tags ?? [],
    updatedAt: s.updatedAt ?? '',
  };
}
