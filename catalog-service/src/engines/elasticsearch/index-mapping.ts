/**
 * The Elasticsearch index made for this catalog: settings, mapping, the
 * document written for an item, and the versioned index names behind the
 * alias. Pure data, so the wire tests can assert the exact bodies.
 */
import { detailsOf, type CatalogItemState } from '@skills/common';
import { popularityOf } from '../../domain/popularity';

/**
 * Fields the public API shows (DESIGN.md §3); searches fetch only these. The
 * release is `release` here (`version` is the state's version, used for
 * external versioning) and `version` in the API.
 */
export const PUBLIC_SOURCE_FIELDS = [
  'id',
  'slug',
  'name',
  'description',
  'type',
  'category',
  'tags',
  'publisher',
  'release',
  'license',
  'repositoryUrl',
  'homepageUrl',
  'downloads',
  'updatedAt',
] as const;

/** The document stored for one item: its full state, tombstones included. */
export interface ItemDocument {
  id: string;
  slug: string | null;
  name: string;
  description: string;
  type: string;
  category: string | null;
  tags: string[];
  status: string;
  visibility: string;
  updatedAt: string;
  version: number;
  publisher: string | null;
  release: string | null;
  license: string | null;
  repositoryUrl: string | null;
  homepageUrl: string | null;
  downloads: number;
  /** popularityOf(downloads), stored so relevance multiplies by it without a script */
  popularity: number;
}

export function toDocument(item: CatalogItemState): ItemDocument {
  const details = detailsOf(item);
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    description: item.description,
    type: item.type,
    category: item.category,
    tags: item.tags,
    status: item.status,
    visibility: item.visibility,
    updatedAt: item.updatedAt,
    version: item.version,
    publisher: details.publisher,
    release: details.version,
    license: details.license,
    repositoryUrl: details.repositoryUrl,
    homepageUrl: details.homepageUrl,
    downloads: details.downloads,
    popularity: popularityOf(details.downloads),
  };
}

/** Words as typed (no stemming): what the term suggester proposes spellings from. */
const WORDS_SUBFIELD = { words: { type: 'text', analyzer: 'standard' } };

/**
 * What the registry details added to the mapping. Sent with the update
 * mapping API to an index created before them (new fields and new
 * multi-fields are the changes it accepts), so a live index takes the new
 * documents at once; documents written before have none of these values
 * anyway, and a reindex builds the full mapping.
 * https://elastic.co/guide/en/elasticsearch/reference/7.8/indices-put-mapping.html
 */
export function addedProperties(): Record<string, unknown> {
  return {
    name: { type: 'text', analyzer: 'english', fields: { ...NAME_SUBFIELDS, ...WORDS_SUBFIELD } },
    description: { type: 'text', analyzer: 'english', fields: WORDS_SUBFIELD },
    publisher: { type: 'keyword' },
    release: { type: 'keyword', index: false },
    license: { type: 'keyword' },
    repositoryUrl: { type: 'keyword', index: false, doc_values: false },
    homepageUrl: { type: 'keyword', index: false, doc_values: false },
    downloads: { type: 'long' },
    popularity: { type: 'float' },
  };
}

const NAME_SUBFIELDS = {
  prefix: { type: 'text', analyzer: 'catalog_prefix_index', search_analyzer: 'catalog_prefix_search' },
  sort: { type: 'keyword', normalizer: 'catalog_lowercase' },
};

/**
 * Body of `PUT /<index>`. Choices:
 * - name and description use the built-in `english` analyzer (stemming,
 *   stop words), so "deploying" finds "deploy";
 * - `name.prefix` indexes edge n-grams of each word (2..20 chars) and is
 *   searched with the plain lowercase analyzer, so "kube" finds
 *   "Kubernetes" without a costly prefix query at search time
 *   (https://elastic.co/docs/reference/text-analysis/analysis-edgengram-tokenfilter);
 *   an edge n-gram subfield rather than `search_as_you_type` because we want
 *   word-prefix matching anywhere in the name, not shingles;
 * - `name.sort` is a lowercased keyword for `sort=name`;
 * - `name.words` and `description.words` keep words unstemmed for the term
 *   suggester (a stem such as "librari" is no spelling to propose);
 * - `popularity` (0..1, domain/popularity.ts) multiplies relevance;
 * - filters are keyword fields, `updatedAt` a date;
 * - `dynamic: strict` so a typo in the document shape fails loudly instead
 *   of growing the mapping.
 */
export function indexDefinition(meta?: Record<string, unknown>): { settings: Record<string, unknown>; mappings: Record<string, unknown> } {
  return {
    settings: {
      analysis: {
        filter: {
          catalog_edge_ngram: { type: 'edge_ngram', min_gram: 2, max_gram: 20 },
        },
        analyzer: {
          catalog_prefix_index: {
            type: 'custom',
            tokenizer: 'standard',
            filter: ['lowercase', 'asciifolding', 'catalog_edge_ngram'],
          },
          catalog_prefix_search: {
            type: 'custom',
            tokenizer: 'standard',
            filter: ['lowercase', 'asciifolding'],
          },
        },
        normalizer: {
          catalog_lowercase: { type: 'custom', filter: ['lowercase', 'asciifolding'] },
        },
      },
    },
    mappings: {
      ...(meta ? { _meta: meta } : {}),
      dynamic: 'strict',
      properties: {
        id: { type: 'keyword' },
        slug: { type: 'keyword' },
        type: { type: 'keyword' },
        category: { type: 'keyword' },
        tags: { type: 'keyword' },
        status: { type: 'keyword' },
        visibility: { type: 'keyword' },
        updatedAt: { type: 'date' },
        version: { type: 'long' },
        ...addedProperties(),
      },
    },
  };
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
export function swapAliasActions(alias: string, previous: string[], target: string): Array<Record<string, { index: string; alias: string }>> {
  return [
    ...previous.map((index) => ({ remove: { index, alias } })),
    { add: { index: target, alias } },
    { remove: { index: target, alias: reindexAliasOf(alias) } },
  ];
}
