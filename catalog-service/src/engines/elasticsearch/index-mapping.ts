/**
 * The Elasticsearch index made for this catalog: settings, mapping and the
 * versioned index names behind the alias. Pure data typed as the client's
 * request types, so `tsc` checks every field name and value.
 *
 * Everything here is in the server itself: the integration-test
 * distribution CI runs has no analysis-common, mapper-extras or painless
 * module, and production clusters need none either. The application
 * analyses text (domain/text-analysis.ts, the memory engine's tokens, stop
 * words and Porter2 stems) and Elasticsearch splits what it sends at
 * whitespace; scoring is Lucene's BM25 over those words. Fields:
 * - `words`, `stems` (text, `whitespace`, frequencies only): each word and
 *   its stem, repeated by its field's weight (item-document.ts), so one field
 *   carries name, description and tags;
 * - `vocabulary` (text, `whitespace`, documents only): each distinct word
 *   once, with `index_prefixes`, so the last word's completions are one term
 *   (https://elastic.co/docs/reference/elasticsearch/mapping-reference/index-prefixes)
 *   at a third of the indexing cost prefixes of the repeated words had;
 * - `idHigh`, `idLow` (long): the id as numbers, the tie-break of every
 *   order (a keyword tie-break cost 100+ ms a browse, every newer item
 *   being competitive), and with `updatedAt` the index's sort;
 * - `exactKey`, `slugKey`, `slugPositions` (keyword), `namePositions` (text
 *   of `<i>:<word>` with `index_prefixes`) and the word counts: the name
 *   rules, each a term lookup; "the query begins the name" is its words at
 *   their positions, the last one as a prefix (every 2–48-character prefix of
 *   the name as a keyword of its own was half the indexing time);
 * - `leadBonus`, `popularity` (float): read by `field_value_factor`;
 * - `verdict` (keyword) and `publisherVerified` (boolean): the trust
 *   filters (`terms`, `term` in filter context) and facets (`terms`
 *   aggregations); `latestVersion` is shown only;
 * - `publisher`, `licenseKey` (the licence lower-cased) and `slug`
 *   (keyword): a workspace policy's publishers, licences and denied slugs
 *   (`terms` in filter context; `license` as written is shown);
 * - `name`, `description` are kept in `_source` only;
 * - `vector` (dense_vector, with a model only): the item's unit vector, in
 *   an int8-quantised HNSW graph (`int8_hnsw`: a quarter of float32's
 *   memory, the form 8.x chooses by default; 9.x would choose `bbq_hnsw`
 *   for 384 dimensions, so it is named), compared by `dot_product`; never
 *   in `_source`. The index's `_meta.vectorModel` names the model, so a
 *   change of model rebuilds it.
 *   https://elastic.co/docs/reference/elasticsearch/mapping-reference/dense-vector
 *   https://www.elastic.co/guide/en/elasticsearch/reference/8.19/dense-vector.html
 *
 * `_source` keeps only the fields a search shows (PUBLIC_SOURCE_FIELDS): the
 * search fields above are indexed, never read back, and were two thirds of
 * every stored document, which a search's fetch decompressed and filtered.
 */
import type { estypes } from '@elastic/elasticsearch';
import { PUBLIC_SOURCE_FIELDS } from './item-document';
import { VECTOR_FIELD } from './meaning-query';

/**
 * The document layout this code reads and writes, kept in the index's
 * `_meta`. An index of an older layout cannot answer this code's queries:
 * the engine reports it (`needsRebuild`) and catalog-service rebuilds it.
 */
export const INDEX_SCHEMA = 8;

const KEYWORD: estypes.MappingProperty = { type: 'keyword' };
/** Matched by term queries only: no doc values to keep. */
const KEYWORD_INDEXED: estypes.MappingProperty = { type: 'keyword', doc_values: false };
/** Shown, never searched. */
const STORED_TEXT: estypes.MappingProperty = { type: 'text', index: false };
/** Shown from `_source`, never matched, sorted or counted. https://elastic.co/docs/reference/elasticsearch/mapping-reference/mapping-index */
const STORED_KEYWORD: estypes.MappingProperty = { type: 'keyword', index: false, doc_values: false };
/**
 * Sorted or read by doc value, never matched: no points (BKD) to build at
 * each flush and merge. Sorting and `docvalue_fields` read doc values only.
 * https://elastic.co/docs/reference/elasticsearch/mapping-reference/mapping-index
 */
const LONG_UNSEARCHED: estypes.MappingProperty = { type: 'long', index: false };

/** Pre-analysed text: split at spaces, scored by BM25; positions are never queried. */
const ANALYSED: estypes.MappingProperty = { type: 'text', analyzer: 'whitespace', index_options: 'freqs' };
/** Distinct words: each is there once, so no frequency to keep. */
const DISTINCT: estypes.MappingProperty = { type: 'text', analyzer: 'whitespace', index_options: 'docs' };
/** The last word as typed is a prefix of 2 to 19 characters (the most index_prefixes allows). */
export const PREFIX_MIN = 2;
export const PREFIX_MAX = 19;

/** The index's sort: the newest order of query-builder.ts. */
export const INDEX_SORT = { field: ['updatedAt', 'idHigh', 'idLow'], order: ['desc', 'asc', 'asc'] } as const;

export const MAPPING_PROPERTIES: Record<string, estypes.MappingProperty> = {
  id: KEYWORD,
  slug: KEYWORD,
  name: STORED_TEXT,
  description: STORED_TEXT,
  type: KEYWORD,
  category: KEYWORD,
  tags: KEYWORD,
  status: KEYWORD,
  visibility: KEYWORD,
  updatedAt: { type: 'date' },
  version: LONG_UNSEARCHED,
  publisher: KEYWORD,
  release: STORED_KEYWORD,
  license: STORED_KEYWORD,
  licenseKey: KEYWORD_INDEXED,
  repositoryUrl: STORED_KEYWORD,
  homepageUrl: STORED_KEYWORD,
  downloads: { type: 'long' },
  latestVersion: STORED_KEYWORD,
  verdict: KEYWORD,
  publisherVerified: { type: 'boolean' },
  idHigh: LONG_UNSEARCHED,
  idLow: LONG_UNSEARCHED,
  words: ANALYSED,
  stems: ANALYSED,
  // only ever matched by prefix (a constant score): no length norm to keep
  // https://www.elastic.co/docs/reference/elasticsearch/mapping-reference/norms
  vocabulary: { ...DISTINCT, norms: false, index_prefixes: { min_chars: PREFIX_MIN, max_chars: PREFIX_MAX } },
  exactKey: KEYWORD_INDEXED,
  slugKey: KEYWORD_INDEXED,
  namePositions: { ...DISTINCT, norms: false, index_prefixes: { min_chars: PREFIX_MIN, max_chars: PREFIX_MAX } },
  slugPositions: KEYWORD_INDEXED,
  nameWordCount: { type: 'integer' },
  slugWordCount: { type: 'integer' },
  leadBonus: { type: 'float', index: false },
  popularity: { type: 'float', index: false },
  nameSort: KEYWORD,
};

/**
 * Body of `PUT /<index>`. One primary shard: BM25's statistics and the
 * suggester's frequencies are then the whole catalog's, the same on every
 * search (a catalog of millions of items fits one), and replicas add
 * throughput. Segments are sorted newest first (the browse order), so a
 * browse reads its page from the head of each segment instead of weighing
 * every item
 * (https://elastic.co/docs/reference/elasticsearch/index-settings/sorting).
 * `dynamic: strict`, so a typo in the document shape fails loudly instead of
 * growing the mapping.
 */
export function indexDefinition(
  meta: Record<string, string | number> = {},
  vectors?: VectorMapping,
): Pick<estypes.IndicesCreateRequest, 'settings' | 'mappings'> {
  return {
    settings: { number_of_shards: 1, index: { sort: { field: [...INDEX_SORT.field], order: [...INDEX_SORT.order] } } },
    mappings: {
      _meta: indexMeta({ ...meta, ...(vectors ? { vectorModel: vectors.model } : {}) }),
      dynamic: 'strict',
      // https://elastic.co/guide/en/elasticsearch/reference/8.18/mapping-source-field.html ("Include / exclude fields"):
      // our documents are rebuilt from the read model, never reindexed from `_source`
      _source: { includes: [...PUBLIC_SOURCE_FIELDS] },
      properties: vectors
        ? { ...MAPPING_PROPERTIES, [VECTOR_FIELD]: vectorProperty(vectors.dimensions) }
        : MAPPING_PROPERTIES,
    },
  };
}

/** The model whose vectors an index holds, and their length. */
export interface VectorMapping {
  model: string;
  dimensions: number;
}

/** HNSW's links per node and the candidates explored while building: Elasticsearch's defaults. */
export const VECTOR_GRAPH = { m: 16, ef_construction: 100 } as const;

export function vectorProperty(dimensions: number): estypes.MappingProperty {
  return {
    type: 'dense_vector',
    dims: dimensions,
    index: true,
    similarity: 'dot_product',
    index_options: { type: 'int8_hnsw', ...VECTOR_GRAPH },
  };
}

/** The model whose vectors the index holds (none: no `vector` field). */
export function vectorModelOf(mapping: estypes.MappingTypeMapping | undefined): string | undefined {
  const model = mapping?._meta?.vectorModel;
  return typeof model === 'string' ? model : undefined;
}

/**
 * The whole `_meta` of an index of this layout. A mapping update replaces
 * `_meta` as a whole (it is not merged: `Mapping.merge` in
 * elastic/elasticsearch takes the update's meta), so every update sends
 * the schema again with what it changes.
 */
export function indexMeta(extra: Record<string, string | number> = {}): Record<string, string | number> {
  return { schema: INDEX_SCHEMA, ...extra };
}

/** The layout an index was built with (1: before `_meta.schema` existed). */
export function schemaOf(mapping: estypes.MappingTypeMapping | undefined): number {
  const schema = mapping?._meta?.schema;
  return typeof schema === 'number' ? schema : 1;
}

/**
 * Whether an index stores only the fields a search shows. An index made
 * before `_source.includes` stores whole documents: a search of it asks for
 * the shown fields (source filtering) until it is rebuilt.
 */
export function storesShownFieldsOnly(mapping: estypes.MappingTypeMapping | undefined): boolean {
  const includes = mapping?._source?.includes ?? [];
  return (
    includes.length === PUBLIC_SOURCE_FIELDS.length && PUBLIC_SOURCE_FIELDS.every((field) => includes.includes(field))
  );
}

/**
 * `<alias>-v<epoch ms>`: unique per reindex, sortable, lowercase as index
 * names must be. The alias itself (ELASTICSEARCH_INDEX) is the only name
 * readers and writers use.
 */
export function versionedIndexName(alias: string, now: Date): string {
  return `${alias}-v${now.getTime()}`;
}

/**
 * The index created behind a missing alias: one name every replica agrees
 * on, so replicas starting together on a fresh cluster collide on it
 * (all but one get `resource_already_exists_exception`) instead of each
 * putting the alias on an index of its own.
 */
export function firstIndexName(alias: string): string {
  return versionedIndexName(alias, new Date(0));
}

/** Alias carried by the index a reindex is building, so every replica's writes reach it. */
export function reindexAliasOf(alias: string): string {
  return `${alias}-reindex`;
}

/**
 * One `_aliases` call, applied atomically: readers move from the previous
 * indices to `target` in one step, and `target` stops being the reindex
 * target in that same step.
 * https://elastic.co/guide/en/elasticsearch/reference/8.18/indices-aliases.html
 */
export function swapAliasActions(
  alias: string,
  previous: string[],
  target: string,
): estypes.IndicesUpdateAliasesAction[] {
  return [
    ...previous.map((index) => ({ remove: { index, alias } })),
    { add: { index: target, alias } },
    { remove: { index: target, alias: reindexAliasOf(alias) } },
  ];
}
