import type { SearchQuery } from '../engines/search-engine';

/**
 * The query a cached answer stands for: q trimmed, lower-cased and with its
 * whitespace collapsed (both engines already match case-insensitively and
 * split on whitespace). The engine is asked this same normalised query, so
 * two requests sharing a key are, by construction, the same engine call.
 */
export function normaliseQuery(query: SearchQuery): SearchQuery {
  if (query.q === undefined) return query;
  const q = query.q.trim().replace(/\s+/g, ' ').toLowerCase();
  // an all-blank q is left as the caller gave it (the engines decide what it means)
  return q === '' ? query : { ...query, q };
}

/** Every field that changes the answer, in a fixed order. */
export function cacheKeyOf(query: SearchQuery): string {
  return JSON.stringify([
    query.q ?? null,
    query.category ?? null,
    query.type ?? null,
    query.tags ?? null,
    query.trust ?? null,
    query.verifiedPublisher ?? null,
    query.facets ?? null,
    // a team's policy: its answer is never another search's
    query.policy ?? null,
    query.page,
    query.limit,
    query.sort,
    // the mode asked for (the model decides which runs, the same for every request)
    query.mode ?? null,
  ]);
}
