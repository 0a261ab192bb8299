/**
 * The catalog's query as a page's address carries it, and the search the
 * console makes of it: every facet counted, 20 results a page.
 */
import { client, type SearchParams, type Sort } from './api';

/** `trust=`: absent for the server's default, `clean` alone, or `any`. */
export type TrustChoice = 'clean' | 'any';

export interface SearchQuery {
  q?: string;
  category?: string;
  type?: string;
  tags?: string[];
  sort?: Sort;
  page?: number;
  trust?: TrustChoice;
  /** true: only verified publishers; otherwise no filter (never "unverified only") */
  verifiedPublisher?: boolean;
}

export function searchParamsOf(query: SearchQuery): SearchParams {
  return {
    q: query.q || undefined,
    category: query.category || undefined,
    type: query.type === 'skill' || query.type === 'plugin' ? query.type : undefined,
    tags: query.tags,
    sort: query.sort,
    page: query.page && query.page > 1 ? query.page : undefined,
    trust: query.trust === 'clean' ? ['clean'] : query.trust,
    verifiedPublisher: query.verifiedPublisher ? true : undefined,
    facets: ['category', 'type', 'trust', 'verifiedPublisher'],
    limit: 20,
  };
}

export const searchCatalog = (query: SearchQuery) => client.searchSkills(searchParamsOf(query));
