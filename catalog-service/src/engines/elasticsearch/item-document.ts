/**
 * The Elasticsearch document of an item state, and back. A searchable item
 * carries its analysis (domain/item-analysis.ts) as data: per-term weights
 * as `rank_features`, its terms for counting and expanding query words, and
 * its name keys. A tombstone (deleted, draft, archived, private) carries
 * none of it, so it adds to no term's document frequency and matches no
 * word; it keeps its status and version so Elasticsearch's external
 * versioning still refuses an older state.
 */
import { detailsOf, type CatalogItemState } from '@skills/common';
import { isSearchable } from '../../domain/indexed-state';
import { analyzeItem } from '../../domain/item-analysis';
import { stemOf } from '../../domain/text-analysis';
import type { CatalogItem } from '../search-engine';

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

/** Separates a stem from its form in `stemForms` ("deploy/deploying"); a term never holds one. */
export const STEM_SEPARATOR = '/';

/** What a searchable item adds to its document (index-mapping.ts maps each field). */
export interface SearchFields {
  /** term → weight (rank_features): the contribution a query word multiplies by its factor */
  terms: Record<string, number>;
  /** the distinct terms: document frequencies, completions, typo candidates */
  words: string[];
  /** `<stem>/<term>` of each term: the other forms of a query word's stem */
  stemForms: string[];
  /** the words of name and slug: candidates for a name the query misspells */
  keyWords: string[];
  exactKey: string;
  slugKey: string;
  /** `<position>:<word>` of the name's and slug's words, and their counts: a misspelt name word by word */
  namePositions: string[];
  slugPositions: string[];
  nameWordCount: number;
  slugWordCount: number;
  /** the name's first word, its weight in `terms`, and the name-begins bonus */
  leadTerm?: string;
  leadWeight?: number;
  leadBonus: number;
  /** the lower-cased name, for sort=name */
  nameSort: string;
}

/** The document stored for one item: its full state, and its search fields when searchable. */
export interface ItemDocument extends Partial<SearchFields> {
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
}

export function toDocument(item: CatalogItemState): ItemDocument {
  const details = detailsOf(item);
  const document: ItemDocument = {
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
  };
  return isSearchable(item) ? { ...document, ...searchFieldsOf(item) } : document;
}

function searchFieldsOf(item: CatalogItemState): SearchFields {
  const { nameWords, slugWords, exactKey, slugKey, weights, leadBonus } = analyzeItem({
    name: item.name,
    slug: item.slug ?? '',
    description: item.description,
    tags: item.tags,
    downloads: detailsOf(item).downloads,
  });
  const words = [...weights.keys()];
  const lead = nameWords[0];
  return {
    terms: Object.fromEntries(weights),
    words,
    stemForms: words.map((word) => `${stemOf(word)}${STEM_SEPARATOR}${word}`),
    keyWords: [...new Set([...nameWords, ...slugWords])],
    exactKey,
    slugKey,
    namePositions: nameWords.map((word, i) => `${i}:${word}`),
    slugPositions: slugWords.map((word, i) => `${i}:${word}`),
    nameWordCount: nameWords.length,
    slugWordCount: slugWords.length,
    ...(lead === undefined ? {} : { leadTerm: lead, leadWeight: weights.get(lead) }),
    leadBonus,
    nameSort: item.name.toLowerCase(),
  };
}

/** A hit's `_source` (PUBLIC_SOURCE_FIELDS) as the public item. */
export function toCatalogItem(source: Partial<ItemDocument> | undefined): CatalogItem {
  const s = source ?? {};
  return {
    id: s.id ?? '',
    slug: s.slug ?? '',
    name: s.name ?? '',
    description: s.description ?? '',
    type: s.type === 'plugin' ? 'plugin' : 'skill',
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
