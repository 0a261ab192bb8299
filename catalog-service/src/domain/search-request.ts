import { InputError, paginationOf, type ItemType, type Pagination } from '@skills/common';
import type { SearchMode } from './hybrid-ranking';
import {
  SEARCHABLE_VERDICTS,
  type CatalogItem,
  type FacetField,
  type Facets,
  type SearchableVerdict,
  type SearchQuery,
  type SearchResult,
  type SearchSort,
  type Suggestion,
} from '../engines/search-engine';

/** Deepest reachable result (docs/search.md "Request rules"); engines count matches up to this too. */
export const MAX_RESULT_WINDOW = 10_000;

export interface SearchParams {
  q?: string;
  category?: string;
  type?: ItemType;
  tag?: string[];
  /** `any`, or the verdicts asked for (the schema lets `malicious` through for the rule below to refuse it by name) */
  trust?: 'any' | Array<SearchableVerdict | 'malicious'>;
  verifiedPublisher?: boolean;
  facets?: FacetField[];
  page: number;
  limit: number;
  sort?: SearchSort;
  /** words only, words and meaning (the default with a model), or meaning only (domain/hybrid-ranking.ts) */
  mode?: SearchMode;
  /** the workspace whose policy the gateway signed into the principal: never read here (domain/search-policy.ts) */
  workspace?: string;
}

/** The deployment's choice of what a search shows when `trust` is not given (SEARCH_SHOWS_UNSCANNED). */
export interface TrustDefaults {
  showsUnscanned: boolean;
}

/** What a search shows without `trust=`: clean items, and unscanned ones unless the deployment hides them. */
export function defaultTrust({ showsUnscanned }: TrustDefaults): SearchableVerdict[] {
  return showsUnscanned ? ['clean', 'unscanned'] : ['clean'];
}

/** `trust=` as the verdicts shown, sorted; a blocked verdict is refused by name. */
function trustOfParams(trust: SearchParams['trust'], defaults: TrustDefaults): SearchableVerdict[] {
  if (trust === undefined) return defaultTrust(defaults);
  if (trust === 'any') return [...SEARCHABLE_VERDICTS];
  if (trust.includes('malicious')) throw new InputError('search.trustBlocked');
  return [...new Set(trust as SearchableVerdict[])].sort();
}

/**
 * Applies the listing rules to validated parameters: an empty q is no q,
 * pages deeper than the result window are refused, relevance is the default
 * order only when there is text to be relevant to, and the verdicts shown
 * are always set: safe by default (docs/trust.md), `malicious` refused.
 */
export function toSearchQuery(params: SearchParams, defaults: TrustDefaults): SearchQuery {
  if (params.page * params.limit > MAX_RESULT_WINDOW) {
    throw new InputError('validation.deepPage', { limit: MAX_RESULT_WINDOW });
  }
  const q = params.q === '' ? undefined : params.q;
  const sort: SearchSort =
    params.sort === 'relevance' || params.sort === undefined ? (q ? 'relevance' : 'newest') : params.sort;
  return {
    q,
    category: params.category,
    type: params.type,
    ...(params.tag?.length ? { tags: [...new Set(params.tag)].sort() } : {}),
    trust: trustOfParams(params.trust, defaults),
    ...(params.verifiedPublisher !== undefined ? { verifiedPublisher: params.verifiedPublisher } : {}),
    ...(params.facets?.length ? { facets: [...params.facets].sort() } : {}),
    page: params.page,
    limit: params.limit,
    sort,
    ...(params.mode ? { mode: params.mode } : {}),
  };
}

export interface SkillsPage {
  skills: CatalogItem[];
  pagination: Pagination;
  facets?: Facets;
  suggestion?: Suggestion;
  /** how the search ran: `mode` is the one that did (the model absent or the query one word: lexical) */
  search: { mode: SearchMode };
}

/** The response body `{ data: <SkillsPage> }`, around the engine's serialised items when it has them. */
export function skillsPageBody(query: SearchQuery, result: SearchResult): string {
  const { skills, ...rest } = toSkillsPage(query, result);
  if (result.itemsJson === undefined) return JSON.stringify({ data: { skills, ...rest } });
  return `{"data":{"skills":${result.itemsJson},${JSON.stringify(rest).slice(1, -1)}}}`;
}

export function toSkillsPage(query: SearchQuery, result: SearchResult): SkillsPage {
  return {
    skills: result.items,
    pagination: paginationOf(query, result.total),
    ...(result.facets ? { facets: result.facets } : {}),
    ...(result.suggestion ? { suggestion: result.suggestion } : {}),
    search: { mode: result.mode ?? 'lexical' },
  };
}
