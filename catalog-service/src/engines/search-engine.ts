import type { CatalogItemState, Health, ItemDetails, ItemType, Verdict } from '@skills/common';
import type { SearchMode } from '../domain/hybrid-ranking';

export type SearchSort = 'relevance' | 'newest' | 'name' | 'popular';

/** Fields `facets=` may count (`trust` counts the item's verdict). */
export const FACET_FIELDS = ['category', 'type', 'trust', 'verifiedPublisher'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];
/** Values listed per facet, most frequent first. */
export const FACET_VALUES_MAX = 100;

export interface FacetValue {
  value: string;
  /** matches with this value, capped like `total` */
  count: number;
}

export type Facets = Partial<Record<FacetField, FacetValue[]>>;

/** A close spelling that finds more than the query did. */
export interface Suggestion {
  q: string;
  total: number;
}

/** Fewer matches than this and a search looks for a better spelling. */
export const SUGGEST_BELOW = 3;

/** Fewer matches than this and the query's words also match their typo forms (domain/spelling.ts). */
export const TYPO_FALLBACK_BELOW = 5;

/**
 * The verdicts a search may show. `malicious` is not one of them: a blocked
 * item is never returned, whatever the query (docs/trust.md "Safe by default").
 */
export type SearchableVerdict = Exclude<Verdict, 'malicious'>;
export const SEARCHABLE_VERDICTS: readonly SearchableVerdict[] = ['clean', 'suspicious', 'unscanned'];

/** A validated search request (docs/search.md "Request rules"). */
export interface SearchQuery {
  /** free text over name (boosted) and description; absent → no text filter */
  q?: string;
  category?: string;
  type?: ItemType;
  /** exact tags, every one required */
  tags?: string[];
  /**
   * the verdicts shown, sorted; absent: every searchable verdict. The route
   * always sets it (the safe default is the route's: domain/search-request.ts).
   */
  trust?: SearchableVerdict[];
  /** only items whose publisher is (true) or is not (false) verified */
  verifiedPublisher?: boolean;
  /** counts to return per value of these fields, over every match */
  facets?: FacetField[];
  /** what a workspace policy filters beyond the fields above (domain/search-policy.ts), ANDed with them */
  policy?: PolicyFilter;
  /** 1-based */
  page: number;
  /** 1..50 */
  limit: number;
  /** default: relevance when q is given, else newest */
  sort: SearchSort;
  /**
   * what runs (domain/hybrid-ranking.ts): absent or `lexical`, the words
   * alone; `hybrid` and `semantic` come with `meaning`, the query's vector
   */
  mode?: SearchMode;
  /** the query's unit vector, of the engine's model (hybrid and semantic modes) */
  meaning?: Float32Array;
}

/**
 * The filters of a workspace policy that the request's own cannot say
 * (docs/governance.md "Policy for every client"). Each list present is
 * non-empty, sorted and without repeats (a list matching nothing never
 * reaches an engine); an absent one filters nothing.
 */
export interface PolicyFilter {
  /** only items whose publisher is one of these, exactly */
  publishers?: string[];
  /** only items whose `license` detail, lower-cased, is one of these (lower-cased) */
  licenses?: string[];
  /** never an item with one of these slugs */
  deniedSlugs?: string[];
}

/** A catalog item as the public API shows it: its text, filters and registry details. */
export interface CatalogItem extends ItemDetails {
  id: string;
  slug: string;
  name: string;
  description: string;
  type: ItemType;
  category: string;
  tags: string[];
  updatedAt: string;
  /** the highest non-yanked release (docs/trust.md); null with none */
  latestVersion: string | null;
  /** the verdict of latestVersion: never `malicious` in a search result */
  verdict: Verdict;
  publisherVerified: boolean;
}

export interface SearchResult {
  items: CatalogItem[];
  /** number of matches (an engine may cap it; see `totalIsCapped`) */
  total: number;
  /** when the query asked for facets */
  facets?: Facets;
  /** when the query found fewer than SUGGEST_BELOW items and a close spelling finds more */
  suggestion?: Suggestion;
  /**
   * `items` as a JSON array, when the engine keeps its items serialised (the
   * memory index): the response is built around it instead of serialising
   * every item again on every request.
   */
  itemsJson?: string;
  /** the mode that ran (the answer's `data.search.mode`); absent: lexical */
  mode?: SearchMode;
}

/** The answer of a query nothing can match: no items, and each facet asked for without values. */
export function noMatches(query: Pick<SearchQuery, 'facets'>): SearchResult {
  return {
    items: [],
    total: 0,
    ...(query.facets ? { facets: Object.fromEntries(query.facets.map((field) => [field, []])) } : {}),
  };
}

export interface ApplyResult {
  /** documents written */
  applied: number;
  /** documents skipped because the engine already held the same or a newer version */
  stale: number;
}

export interface ReindexProgress {
  indexed: number;
  total?: number;
}

/**
 * The read model behind `GET /api/v1/skills`. Implementations: MemorySearchEngine
 * (an in-memory index per replica over a Postgres read model) and ElasticsearchEngine. Every
 * engine passes the same conformance suite.
 */
export interface SearchEngine {
  /** Only active public items match. */
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Writes full item states idempotently: a state whose version is not newer
   * than the stored one is skipped. Deleted, draft, archived and private
   * items are stored (as tombstones) but never returned by `search`.
   */
  apply(items: CatalogItemState[]): Promise<ApplyResult>;
  /**
   * Rebuilds the whole read model from `source` (the system of record) while
   * `search` keeps answering from the old one, then switches atomically.
   */
  reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress>;
  health(): Promise<Health>;
  close(): Promise<void>;
  /** where item vectors go, when the engine was given a model (docs/search.md "Item vectors") */
  readonly vectors?: ItemVectorTarget;
}

/** A searchable item without a vector of the engine's model: the text to embed and its hash. */
export interface VectorNeed {
  id: string;
  contentHash: string;
  text: string;
}

export interface ItemVector {
  id: string;
  contentHash: string;
  /** unit length, of the engine's model */
  vector: Float32Array;
}

export interface VectorProgress {
  /** searchable items holding a vector of their current text */
  withVector: number;
  /** searchable items */
  searchable: number;
}

/**
 * The engine's side of the vector backlog (src/vectors/vector-backfill.ts):
 * which searchable items lack a vector of their current text, and where the
 * vectors go. An item's vector is taken only while the item still has the
 * text it was computed from.
 */
export interface ItemVectorTarget {
  /** the model whose vectors the engine holds (TextEmbedder.model) */
  readonly model: string;
  /** up to `limit` items without a vector of their current text */
  missing(limit: number): Promise<VectorNeed[]>;
  /** gives items their vectors; answers how many took one */
  attach(vectors: readonly ItemVector[]): Promise<number>;
  progress(): Promise<VectorProgress>;
}
