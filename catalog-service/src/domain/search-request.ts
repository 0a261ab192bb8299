import { InputError, paginationOf, type ItemType, type Pagination } from '@skills/common';
import type { CatalogItem, FacetField, Facets, SearchQuery, SearchResult, SearchSort, Suggestion } from '../engines/search-engine';

/** Deepest reachable result (DESIGN.md §3); engines count matches up to this too. */
export const MAX_RESULT_WINDOW = 10_000;

export interface SearchParams {
  q?: string;
  category?: string;
  type?: ItemType;
  tag?: string[];
  facets?: FacetField[];
  page: number;
  limit: number;
  sort?: SearchSort;
}

/**
 * Applies the listing rules to validated parameters: an empty q is no q,
 * pages deeper than the result window are refused, relevance is the default
 * order only when there is text to be relevant to.
 */
export function toSearchQuery(params: SearchParams): SearchQuery {
  if (params.page * params.limit > MAX_RESULT_WINDOW) {
    throw new InputError('validation.deepPage', { limit: MAX_RESULT_WINDOW });
  }
  const q = params.q === '' ? undefined : params.q;
  const sort: SearchSort = params.sort === 'relevance' || params.sort === undefined ? (q ? 'relevance' : 'newest') : params.sort;
  return {
    q,
    category: params.category,
    type: params.type,
    ...(params.tag?.length ? { tags: [...new Set(params.tag)].sort() } : {}),
    ...(params.facets?.length ? { facets: [...params.facets].sort() } : {}),
    page: params.page,
    limit: params.limit,
    sort,
  };
}

export interface SkillsPage {
  skills: CatalogItem[];
  pagination: Pagination;
  facets?: Facets;
  suggestion?: Suggestion;
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
  };
}
