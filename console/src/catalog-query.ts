/**
 * The catalog's query as the address holds it
 * (`?q=…&category=…&tag=…&trust=…&verifiedPublisher=true&sort=…&page=…`):
 * read from the address, edited by the filters, and the search the console
 * makes of it (every facet counted, 20 results a page).
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

export function queryOf(params: URLSearchParams): SearchQuery {
  return {
    q: params.get('q') ?? undefined,
    category: params.get('category') ?? undefined,
    type: params.get('type') ?? undefined,
    tags: params.getAll('tag'),
    sort: (params.get('sort') as Sort | null) ?? undefined,
    page: Number(params.get('page') ?? '1') || 1,
    trust: (['clean', 'any'] as const).find((t) => t === params.get('trust')),
    verifiedPublisher: params.get('verifiedPublisher') === 'true',
  };
}

/** Sets one parameter, or removes it when there is no value (a filter turned off). */
export function setParam(params: URLSearchParams, name: string, value: string | undefined): void {
  if (value) params.set(name, value);
  else params.delete(name);
}

/** Adds a tag filter once (all tags must match). */
export function addTag(params: URLSearchParams, tag: string): void {
  if (!params.getAll('tag').includes(tag)) params.append('tag', tag);
}

/** Removes one tag filter, keeping the others in their order. */
export function removeTag(params: URLSearchParams, tag: string): void {
  const rest = params.getAll('tag').filter((t) => t !== tag);
  params.delete('tag');
  for (const t of rest) params.append('tag', t);
}
