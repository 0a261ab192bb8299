/**
 * Translates a validated SearchQuery into the body of `POST /<alias>/_search`.
 * A pure function: the wire tests assert its exact output, and the engine
 * sends it unchanged.
 */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import type { SearchQuery } from '../search-engine';
import { PUBLIC_SOURCE_FIELDS } from './index-mapping';

type Clause = Record<string, unknown>;

export interface SearchRequestBody {
  from: number;
  size: number;
  track_total_hits: number;
  _source: string[];
  query: Clause;
  sort: Clause[];
}

/** Name matches weigh three times description matches, as in the memory index (name 1.0, description 0.4). */
const NAME_BOOST = 3;

/**
 * The text part: any of
 * - all words in name or description, each word allowed a typo or two
 *   (`fuzziness: AUTO`; the first letter must match, which keeps typo
 *   expansion cheap and relevant);
 * - every word a prefix of a word of the name (the `name.prefix` edge n-grams);
 * - all words in the description, the last one as a prefix
 *   (`match_bool_prefix`).
 * Query DSL: https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-multi-match-query
 * and https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-match-bool-prefix-query
 */
function textClause(q: string): Clause {
  return {
    bool: {
      should: [
        {
          multi_match: {
            query: q,
            type: 'best_fields',
            fields: [`name^${NAME_BOOST}`, 'description'],
            operator: 'and',
            fuzziness: 'AUTO',
            prefix_length: 1,
          },
        },
        { match: { 'name.prefix': { query: q, operator: 'and', boost: NAME_BOOST } } },
        { match_bool_prefix: { description: { query: q, operator: 'and' } } },
      ],
      minimum_should_match: 1,
    },
  };
}

/** Exact filters in filter context: no scoring, cacheable. */
function filterClauses(query: SearchQuery): Clause[] {
  const filters: Clause[] = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];
  if (query.category !== undefined) filters.push({ term: { category: query.category } });
  if (query.type !== undefined) filters.push({ term: { type: query.type } });
  return filters;
}

/**
 * Relevance then newest when there is text; newest otherwise (there is no
 * relevance without text). `id` breaks every tie so pages never overlap.
 */
function sortClauses(query: SearchQuery, hasText: boolean): Clause[] {
  const newest: Clause = { updatedAt: { order: 'desc' } };
  const tieBreak: Clause = { id: { order: 'asc' } };
  if (query.sort === 'name') return [{ 'name.sort': { order: 'asc' } }, tieBreak];
  if (query.sort === 'relevance' && hasText) return [{ _score: { order: 'desc' } }, newest, tieBreak];
  return [newest, tieBreak];
}

export function buildSearchRequest(query: SearchQuery): SearchRequestBody {
  const q = query.q?.trim() ?? '';
  const hasText = q.length > 0;
  const bool: Clause = { filter: filterClauses(query) };
  if (hasText) bool.must = [textClause(q)];
  return {
    from: (query.page - 1) * query.limit,
    size: query.limit,
    // Counts exactly up to the deepest reachable result and stops there, like the
    // memory engine: `total` means the same on both (10,000 reads "10,000 or more").
    // https://elastic.co/guide/en/elasticsearch/reference/7.1/search-request-track-total-hits.html
    track_total_hits: MAX_RESULT_WINDOW,
    _source: [...PUBLIC_SOURCE_FIELDS],
    query: { bool },
    sort: sortClauses(query, hasText),
  };
}
