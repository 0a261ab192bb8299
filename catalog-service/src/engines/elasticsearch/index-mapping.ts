/**
 * The Elasticsearch index made for this catalog: settings, mapping and the
 * versioned index names behind the alias. Pure data typed as the client's
 * request types, so `tsc` checks every field name and value, and the wire
 * tests assert the exact bodies.
 *
 * No text is analysed by Elasticsearch: documents carry the terms and
 * weights the application computed (item-document.ts), the same the memory
 * engine indexes, so both engines see identical tokens, stems and stop
 * words. Fields:
 * - `terms` (rank_features): each term's weight; a query word is a dis_max
 *   of `rank_feature` queries over its terms, boosted by their factors
 *   (https://elastic.co/docs/reference/elasticsearch/mapping-reference/rank-features);
 * - `words`, `stemForms`, `keyWords` (keyword): a word's other forms, the
 *   completions of the last word and typo candidates are found and counted
 *   in them with terms aggregations and the term suggester;
 * - `exactKey`, `slugKey`, `namePositions`, `slugPositions`, word counts,
 *   `leadTerm`/`leadWeight`/`leadBonus` (floats, exact as stored): the name rules;
 * - `name`, `description` are kept in `_source` only.
 */
import type { estypes } from '@elastic/elasticsearch';

/**
 * The document layout this code reads and writes, kept in the index's
 * `_meta`. An index of an older layout cannot answer this code's queries:
 * the engine reports it (`needsRebuild`) and catalog-service rebuilds it.
 */
export const INDEX_SCHEMA = 2;

const KEYWORD: estypes.MappingProperty = { type: 'keyword' };
/** Matched by term queries only: no doc values to keep. */
const KEYWORD_INDEXED: estypes.MappingProperty = { type: 'keyword', doc_values: false };
/** Shown, never searched. */
const STORED_TEXT: estypes.MappingProperty = { type: 'text', index: false };
const STORED_KEYWORD: estypes.MappingProperty = { type: 'keyword', index: false, doc_values: false };

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
  version: { type: 'long' },
  publisher: KEYWORD,
  release: STORED_KEYWORD,
  license: KEYWORD,
  repositoryUrl: STORED_KEYWORD,
  homepageUrl: STORED_KEYWORD,
  downloads: { type: 'long' },
  terms: { type: 'rank_features' },
  words: KEYWORD,
  stemForms: KEYWORD,
  keyWords: KEYWORD,
  exactKey: KEYWORD_INDEXED,
  slugKey: KEYWORD_INDEXED,
  namePositions: KEYWORD_INDEXED,
  slugPositions: KEYWORD_INDEXED,
  nameWordCount: { type: 'integer' },
  slugWordCount: { type: 'integer' },
  leadTerm: KEYWORD,
  leadWeight: { type: 'float' },
  leadBonus: { type: 'float' },
  nameSort: KEYWORD,
};

/**
 * Body of `PUT /<index>`. One primary shard: the document frequencies the
 * engine reads come from aggregations, which are exact on one shard (a
 * catalog of millions of items fits one), and replicas add throughput.
 * `dynamic: strict`, so a typo in the document shape fails loudly instead of
 * growing the mapping.
 */
export function indexDefinition(meta: Record<string, string | number> = {}): Pick<estypes.IndicesCreateRequest, 'settings' | 'mappings'> {
  return {
    settings: { number_of_shards: 1 },
    mappings: {
      _meta: { schema: INDEX_SCHEMA, ...meta },
      dynamic: 'strict',
      properties: MAPPING_PROPERTIES,
    },
  };
}

/** The layout an index was built with (1: before `_meta.schema` existed). */
export function schemaOf(mapping: estypes.MappingTypeMapping | undefined): number {
  const schema = mapping?._meta?.schema;
  return typeof schema === 'number' ? schema : 1;
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
export function swapAliasActions(alias: string, previous: string[], target: string): estypes.IndicesUpdateAliasesAction[] {
  return [
    ...previous.map((index) => ({ remove: { index, alias } })),
    { add: { index: target, alias } },
    { remove: { index: target, alias: reindexAliasOf(alias) } },
  ];
}
