/**
 * The Elasticsearch document of an item state, and back. A searchable item
 * carries its words and their Porter2 stems as the application's text
 * analysis makes them (domain/text-analysis.ts, the memory engine's), joined
 * by spaces for Elasticsearch's `whitespace` analyzer, and its name keys. A tombstone (deleted, draft, archived, private) carries
 * none of it, so it adds to no term's document frequency and matches no
 * word; it keeps its status and version so Elasticsearch's external
 * versioning still refuses an older state.
 */
import { detailsOf, licenseKeyOf, trustOf, type CatalogItemState, type Verdict } from '@skills/common';
import { isSearchable } from '../../domain/indexed-state';
import { popularityBoost } from '../../domain/popularity';
import { nameBeginsBonus } from '../../domain/ranking';
import { stemOf, tokenize } from '../../domain/text-analysis';
import type { CatalogItem } from '../search-engine';

/**
 * Fields the public API shows (docs/api.md), the only ones an index keeps
 * in `_source` (index-mapping.ts). The release is `release` here (`version`
 * is the state's version, used for external versioning) and `version` in
 * the API.
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
  'latestVersion',
  'verdict',
  'publisherVerified',
] as const;

/**
 * How often each word of a field is written into `words` and `stems`: the
 * field weights of domain/ranking.ts (name 1, description 0.4, tags 0.2) as
 * whole repetitions, so one BM25 field scores a word by its field-weighted
 * frequency as the memory engine does, with Elasticsearch's own analysis of
 * nothing but whitespace (the node needs no analysis module).
 */
export const NAME_REPEAT = 5;
export const DESCRIPTION_REPEAT = 2;
export const TAG_REPEAT = 1;

/** What a searchable item adds to its document (index-mapping.ts maps each field). */
export interface SearchFields {
  /** the words of name, description and tags (domain/text-analysis.ts tokenize), each repeated by its field's weight */
  words: string;
  /** the Porter2 stems of the same words, repeated alike */
  stems: string;
  /** each distinct word once: the last word's completions (index_prefixes) */
  vocabulary: string;
  /** the name's and the slug's words joined by one space: an exact-name query equals one of them */
  exactKey: string;
  slugKey: string;
  /**
   * `<position>:<word>` of the name's words (space-separated text) and of the
   * slug's, and their counts: a misspelt name word by word, and the names a
   * query begins (its words in place, the last as a prefix)
   */
  namePositions: string;
  slugPositions: string[];
  nameWordCount: number;
  slugWordCount: number;
  /** the name-begins bonus (domain/ranking.ts nameBeginsBonus) */
  leadBonus: number;
  /** the factor the text score is multiplied by (domain/popularity.ts popularityBoost) */
  popularity: number;
  /** the lower-cased name, for sort=name */
  nameSort: string;
}

/** The document stored for one item: its full state, and its search fields when searchable. */
export interface ItemDocument extends Partial<SearchFields> {
  id: string;
  /** the id's first and next 13 hex digits as numbers (idKeys): its order, compared as numbers */
  idHigh: number;
  idLow: number;
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
  /** the licence lower-cased (licenseKeyOf, @skills/common): what a policy's licences match */
  licenseKey: string | null;
  repositoryUrl: string | null;
  homepageUrl: string | null;
  downloads: number;
  /** the item's trust (docs/trust.md): a legacy state without it is unscanned and unverified */
  latestVersion: string | null;
  verdict: Verdict;
  publisherVerified: boolean;
}

/**
 * The external version a document is written with: twice the item's
 * version, plus one when it carries its vector. The vector side writes an
 * item again once its vector is computed (one more than the word side's
 * write), and the next state of the item (two more) still replaces it;
 * Elasticsearch refuses anything older, as before.
 * https://elastic.co/docs/reference/elasticsearch/rest-apis/optimistic-concurrency-control
 */
export function documentVersion(itemVersion: number, withVector: boolean): number {
  return itemVersion * 2 + (withVector ? 1 : 0);
}

/** The item's vector as a document field (never in `_source`: index-mapping.ts). */
export interface VectorField {
  vector?: number[];
}

/** The document of `item`, with its vector when given (a searchable item's only). */
export function toDocument(item: CatalogItemState, vector?: Float32Array): ItemDocument & VectorField {
  const details = detailsOf(item);
  const trust = trustOf(item);
  const document: ItemDocument = {
    id: item.id,
    ...idKeys(item.id),
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
    licenseKey: licenseKeyOf(details.license),
    repositoryUrl: details.repositoryUrl,
    homepageUrl: details.homepageUrl,
    downloads: details.downloads,
    latestVersion: trust.latestVersion,
    verdict: trust.verdict,
    publisherVerified: trust.publisherVerified,
  };
  // assigned, not spread: spreading both into a new literal took V8's slow path, 40 µs an item
  if (isSearchable(item)) {
    Object.assign(document, searchFieldsOf(item));
    if (vector) (document as VectorField).vector = Array.from(vector);
  }
  return document;
}

/**
 * An item id (a UUID, lower-case hex as Postgres writes it) as two numbers
 * that order like the string: its first 13 and next 13 hex digits (52 bits
 * each, exact in a double). Two ids equal in all 104 bits cannot both be
 * random UUIDs in practice; the last 6 digits are not compared.
 */
export function idKeys(id: string): { idHigh: number; idLow: number } {
  const hex = id.replace(/-/g, '');
  return { idHigh: parseInt(hex.slice(0, 13), 16) || 0, idLow: parseInt(hex.slice(13, 26), 16) || 0 };
}

/** Each word (mapped) written `times` times, space-separated, field after field: plain loops, this runs for every indexed item. */
function repeatedText(fields: ReadonlyArray<readonly [string[], number]>, map: (word: string) => string): string {
  const out: string[] = [];
  for (const [words, times] of fields) {
    for (const word of words) {
      const mapped = map(word);
      for (let k = 0; k < times; k++) out.push(mapped);
    }
  }
  return out.join(' ');
}

const same = (word: string): string => word;

function searchFieldsOf(item: CatalogItemState): SearchFields {
  const downloads = detailsOf(item).downloads;
  const nameWords = tokenize(item.name);
  const slugWords = tokenize(item.slug ?? '');
  const descriptionWords = tokenize(item.description);
  const tagWords = tokenize(item.tags.join(' '));
  const fields = [
    [nameWords, NAME_REPEAT],
    [descriptionWords, DESCRIPTION_REPEAT],
    [tagWords, TAG_REPEAT],
  ] as const;
  return {
    words: repeatedText(fields, same),
    stems: repeatedText(fields, stemOf),
    vocabulary: [...new Set([...nameWords, ...descriptionWords, ...tagWords])].join(' '),
    exactKey: nameWords.join(' '),
    slugKey: slugWords.join(' '),
    namePositions: nameWords.map((word, i) => `${i}:${word}`).join(' '),
    slugPositions: slugWords.map((word, i) => `${i}:${word}`),
    nameWordCount: nameWords.length,
    slugWordCount: slugWords.length,
    leadBonus: nameBeginsBonus(nameWords.length, downloads),
    popularity: popularityBoost(downloads),
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
    latestVersion: s.latestVersion ?? null,
    verdict: s.verdict ?? 'unscanned',
    publisherVerified: s.publisherVerified ?? false,
  };
}
