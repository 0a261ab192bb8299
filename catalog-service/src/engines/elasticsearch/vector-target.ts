/**
 * Item vectors on Elasticsearch (docs/elasticsearch.md "Search by meaning").
 * The word side writes an item with the vector its text already has in the
 * store (looked up by content hash, never computed there), or without one;
 * the backlog is then simply the searchable documents without a `vector`,
 * found by a query, so it survives restarts and needs no table of its own.
 * When their vectors are computed they are written again, whole (their
 * `_source` keeps only the shown fields, so a partial update would lose the
 * search fields), rebuilt from those fields: a searchable item's state is
 * exactly what the API shows plus its version (a doc value). Written at the
 * next external version (item-document.ts documentVersion), a document whose
 * item moved on meanwhile refuses it (409) and keeps its newer state.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { CatalogItemState, ItemType, Verdict } from '@skills/common';
import { isSearchable } from '../../domain/indexed-state';
import { contentHashOf, embeddingTextOf } from '../../domain/item-text';
import type { ItemVectorRepository } from '../../store/item-vector.repository';
import type { ItemVector, ItemVectorTarget, VectorNeed, VectorProgress } from '../search-engine';
import type { WriteOptions, WriteOutcome } from './bulk-writer';
import { PUBLIC_SOURCE_FIELDS, type ItemDocument } from './item-document';
import { VECTOR_FIELD } from './meaning-query';
import { SEARCHABLE } from './query-builder';

type Query = estypes.QueryDslQueryContainer;

export interface ElasticsearchVectorsOptions {
  client: Client;
  alias: string;
  model: string;
  store: ItemVectorRepository;
  /** the engine's bulk write (retries, versions) */
  write(index: string, items: CatalogItemState[], options: WriteOptions): Promise<WriteOutcome>;
  retrying<T>(operation: () => Promise<T>): Promise<T>;
  /** false while the index behind the alias has no field for this model's vectors (it is being rebuilt) */
  holdsVectors(): boolean;
}

/** Searchable documents: active, public, not blocked (a blocked item is stored as a tombstone with its verdict). */
const SEARCHABLE_DOCUMENTS: Query[] = [...SEARCHABLE];
const BLOCKED: Query = { term: { verdict: 'malicious' } };

export class ElasticsearchVectors implements ItemVectorTarget {
  readonly model: string;
  /** the states the last `missing()` found, by id: what `attach()` writes again */
  private found = new Map<string, CatalogItemState>();

  constructor(private readonly options: ElasticsearchVectorsOptions) {
    this.model = options.model;
  }

  /** The stored vectors of the searchable items about to be written, by item id. */
  async known(items: readonly CatalogItemState[]): Promise<Map<string, Float32Array>> {
    const hashes = new Map<string, string>();
    for (const item of items) if (isSearchable(item)) hashes.set(item.id, contentHashOf(embeddingTextOf(item)));
    const byHash = await this.options.store.find(this.model, [...hashes.values()]);
    const vectors = new Map<string, Float32Array>();
    for (const [id, hash] of hashes) {
      const vector = byHash.get(hash);
      if (vector) vectors.set(id, vector);
    }
    return vectors;
  }

  /**
   * Searchable items without a vector, in index order (`_doc`, the cheapest
   * sort), their version read from doc values.
   * https://www.elastic.co/docs/reference/query-languages/query-dsl/query-dsl-exists-query
   * https://www.elastic.co/docs/reference/elasticsearch/rest-apis/sort-search-results
   * https://elastic.co/guide/en/elasticsearch/reference/8.18/search-fields.html#docvalue-fields
   */
  async missing(limit: number): Promise<VectorNeed[]> {
    const { client, alias, retrying } = this.options;
    if (!this.options.holdsVectors()) return [];
    const res = await retrying(() =>
      client.search<Partial<ItemDocument>>({
        index: alias,
        size: limit,
        query: { bool: { filter: SEARCHABLE_DOCUMENTS, must_not: [BLOCKED, { exists: { field: VECTOR_FIELD } }] } },
        _source: [...PUBLIC_SOURCE_FIELDS],
        docvalue_fields: ['version'],
        sort: ['_doc'],
      }),
    );
    this.found = new Map();
    return res.hits.hits.flatMap((hit) => {
      const state = stateOfHit(hit);
      if (!state) return [];
      this.found.set(state.id, state);
      const text = embeddingTextOf(state);
      return [{ id: state.id, contentHash: contentHashOf(text), text }];
    });
  }

  async attach(vectors: readonly ItemVector[]): Promise<number> {
    const states: CatalogItemState[] = [];
    const byId = new Map<string, Float32Array>();
    for (const { id, contentHash, vector } of vectors) {
      const state = this.found.get(id);
      if (!state || contentHashOf(embeddingTextOf(state)) !== contentHash) continue;
      states.push(state);
      byId.set(id, vector);
    }
    if (states.length === 0) return 0;
    // searchable before it returns: the next `missing()` must not find these again
    const outcome = await this.options.write(this.options.alias, states, {
      requireAlias: true,
      searchableBy: 'wait_for',
      vectors: byId,
    });
    for (const state of states) this.found.delete(state.id);
    if (outcome.failures.length > 0)
      throw new Error(
        `Elasticsearch refused ${outcome.failures.length} vector write(s): ${outcome.failures[0]?.reason}`,
      );
    return outcome.applied;
  }

  /** Searchable items, and those with a vector: two `_count` requests. https://elastic.co/docs/api/doc/elasticsearch/operation/operation-count */
  async progress(): Promise<VectorProgress> {
    const { client, alias, retrying } = this.options;
    const count = (query: Query) => retrying(() => client.count({ index: alias, query })).then((res) => res.count);
    const [searchable, withVector] = await Promise.all([
      count({ bool: { filter: SEARCHABLE_DOCUMENTS, must_not: [BLOCKED] } }),
      count({ bool: { filter: [...SEARCHABLE_DOCUMENTS, { exists: { field: VECTOR_FIELD } }], must_not: [BLOCKED] } }),
    ]);
    return { withVector, searchable };
  }
}

/** A searchable document's item state: its shown fields, its version, and what searchable means. */
function stateOfHit(hit: estypes.SearchHit<Partial<ItemDocument>>): CatalogItemState | undefined {
  const s = hit._source;
  const version = (hit.fields?.version as number[] | undefined)?.[0];
  if (!s?.id || typeof version !== 'number') return undefined;
  return {
    id: s.id,
    slug: s.slug ?? null,
    name: s.name ?? '',
    description: s.description ?? '',
    type: (s.type ?? 'skill') as ItemType,
    category: s.category ?? null,
    tags: s.tags ?? [],
    status: 'active',
    visibility: 'public',
    updatedAt: s.updatedAt ?? '',
    version,
    details: {
      publisher: s.publisher ?? null,
      version: s.release ?? null,
      license: s.license ?? null,
      repositoryUrl: s.repositoryUrl ?? null,
      homepageUrl: s.homepageUrl ?? null,
      downloads: s.downloads ?? 0,
    },
    trust: {
      latestVersion: s.latestVersion ?? null,
      verdict: (s.verdict ?? 'unscanned') as Verdict,
      publisherVerified: s.publisherVerified ?? false,
      blockedReason: null,
    },
  };
}
