/**
 * The catalog's query as the address holds it
 * (`?q=…&category=…&tag=…&trust=…&verifiedPublisher=true&sort=…&page=…`):
 * read into the API's search query, and the edits the filters make to it.
 */
import type { Sort } from './api';
import type { SearchQuery } from './search';

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
