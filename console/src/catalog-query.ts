/**
 * The catalog's query as the address holds it
 * (`?q=…&category=…&type=…&tag=…&trust=…&verifiedPublisher=true&sort=…&page=…`):
 * read from the address (what is not a filter the API knows is left out),
 * written back in one order with the defaults left out, edited by the
 * filters, linked to from other pages, and the search the console makes of
 * it (every facet counted, 20 results a page).
 */
import { client, type SearchParams, type Sort } from './api';

/** `trust=`: absent for the server's default, `clean` alone, or `any`. */
export type TrustChoice = 'clean' | 'any';

export interface SearchQuery {
  q?: string;
  category?: string;
  type?: SearchParams['type'];
  tags?: string[];
  sort?: Sort;
  /** from 1 */
  page?: number;
  trust?: TrustChoice;
  /** true: only verified publishers; otherwise no filter (never "unverified only") */
  verifiedPublisher?: boolean;
}

// Records, so that a sort or type the client adds is missed here at compile time.
const SORT_KEYS: Record<Sort, null> = { relevance: null, popular: null, newest: null, name: null };
const TYPE_KEYS: Record<NonNullable<SearchParams['type']>, null> = { skill: null, plugin: null };
const TRUST_KEYS: Record<TrustChoice, null> = { clean: null, any: null };

/** The sorts the API knows, in the order the console offers them (relevance first: the API's default). */
export const SORTS = Object.keys(SORT_KEYS) as Sort[];

const oneOf = <T extends string>(keys: Record<T, null>, value: string | null): T | undefined =>
  value !== null && Object.hasOwn(keys, value) ? (value as T) : undefined;

export function searchParamsOf(query: SearchQuery): SearchParams {
  return {
    q: query.q || undefined,
    category: query.category || undefined,
    type: query.type,
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

/** The query of an address; a value the API does not know (a sort, a type, a page that is no page) reads as absent. */
export function queryOf(params: URLSearchParams): SearchQuery {
  const page = Number(params.get('page'));
  return {
    q: params.get('q') || undefined,
    category: params.get('category') || undefined,
    type: oneOf(TYPE_KEYS, params.get('type')),
    tags: [...new Set(params.getAll('tag'))].filter((t) => t !== ''),
    sort: oneOf(SORT_KEYS, params.get('sort')),
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
    trust: oneOf(TRUST_KEYS, params.get('trust')),
    verifiedPublisher: params.get('verifiedPublisher') === 'true',
  };
}

/** The address of a query, what `queryOf` reads back: defaults (page 1, no filter) left out, one order whatever the edits. */
export function addressOf(query: SearchQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string | undefined) => {
    if (value) params.set(name, value);
  };
  set('q', query.q);
  set('category', query.category);
  set('type', query.type);
  for (const tag of query.tags ?? []) params.append('tag', tag);
  set('trust', query.trust);
  if (query.verifiedPublisher) params.set('verifiedPublisher', 'true');
  set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return params;
}

/** The catalog page showing `query` (a suggestion, an item's category or tag). */
export function catalogLink(query: SearchQuery): string {
  const search = addressOf(query).toString();
  return search ? `/catalog?${search}` : '/catalog';
}

/** The text, a filter or the sort changed: the query with `change`, back on page 1. */
export function refine(query: SearchQuery, change: Partial<SearchQuery>): SearchQuery {
  return { ...query, ...change, page: 1 };
}

/** The tags with `tag` added once (all must match). */
export function withTag(tags: readonly string[] = [], tag: string): string[] {
  return tags.includes(tag) ? [...tags] : [...tags, tag];
}

/** The tags without `tag`, the others in their order. */
export function withoutTag(tags: readonly string[] = [], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}
