/**
 * Translates a validated SearchQuery into the body of `POST /<alias>/_search`.
 * A pure function: the wire tests assert its exact output, and the engine
 * sends it unchanged.
 */
import { POPULARITY_WEIGHT } from '../../domain/popularity';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { TWO_TYPOS_MIN_LENGTH, TYPO_MIN_LENGTH } from '../../domain/spelling';
import { FACET_VALUES_MAX, type SearchQuery } from '../search-engine';
import { PUBLIC_SOURCE_FIELDS } from './index-mapping';

type Clause = Record<string, unknown>;

export interface SearchRequestBody {
  from: number;
  size: number;
  track_total_hits: number;
  _source: string[];
  query: Clause;
  sort: Clause[];
  aggs?: Record<string, Clause>;
}

/** Name matches weigh three times description matches, as in the memory index (name 1.0, description 0.4). */
const NAME_BOOST = 3;
/** A tag (a keyword: the whole tag is one term, typos allowed) weighs as little as in the memory index (0.2 / 0.4). */
const TAG_BOOST = 0.5;

/**
 * The text part: any of
 * - all words in name or description (or a whole tag), each word allowed one typo from 4
 *   letters and two from 8 (`fuzziness: AUTO:4,8`, domain/spelling.ts; the
 *   first letter must match, which keeps typo expansion cheap and relevant);
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
            fields: [`name^${NAME_BOOST}`, 'description', `tags^${TAG_BOOST}`],
            operator: 'and',
            fuzziness: `AUTO:${TYPO_MIN_LENGTH},${TWO_TYPOS_MIN_LENGTH}`,
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

/** Lifts the item the query names (whole name or slug) above any partial match, as the memory index's exact-name bonus does. */
const EXACT_NAME_BOOST = 1_000;
/** Then the items whose slug the query begins (someone typing a name); the popularity factor orders them. */
const NAME_PREFIX_BOOST = 100;

/**
 * Optional clauses scoring an exact name (the lowercased keyword, through
 * its normalizer) or slug (the query's words joined by hyphens), and a slug
 * the query begins (a constant-score prefix query).
 * https://elastic.co/guide/en/elasticsearch/reference/current/query-dsl-prefix-query.html
 */
function exactNameClauses(q: string): Clause[] {
  const slug = wordsOf(q).join('-');
  return [
    { match: { 'name.sort': { query: q, boost: EXACT_NAME_BOOST } } },
    { term: { slug: { value: slug, boost: EXACT_NAME_BOOST } } },
    { prefix: { slug: { value: slug, boost: NAME_PREFIX_BOOST } } },
  ];
}

/** The lower-cased words of `q` as the standard analyzer splits them (runs of letters and digits). */
export function wordsOf(q: string): string[] {
  return q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Exact filters in filter context: no scoring, cacheable. */
function filterClauses(query: SearchQuery): Clause[] {
  const filters: Clause[] = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];
  if (query.category !== undefined) filters.push({ term: { category: query.category } });
  if (query.type !== undefined) filters.push({ term: { type: query.type } });
  // one term filter per tag: every tag is required
  for (const tag of query.tags ?? []) filters.push({ term: { tags: tag } });
  return filters;
}

/**
 * Relevance × (1 + 0.5 × popularity), the blend of domain/popularity.ts: a
 * `weight` alone is a function returning it, summed with the stored
 * popularity times the factor, and the sum multiplies the query's score.
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-function-score-query
 */
function withPopularity(query: Clause): Clause {
  return {
    function_score: {
      query,
      functions: [{ weight: 1 }, { field_value_factor: { field: 'popularity', factor: POPULARITY_WEIGHT, missing: 0 } }],
      score_mode: 'sum',
      boost_mode: 'multiply',
    },
  };
}

/** Counts per value over every match, most frequent first then by value, as the memory index ranks them. */
function facetAggregations(query: SearchQuery): Record<string, Clause> | undefined {
  if (!query.facets) return undefined;
  return Object.fromEntries(
    query.facets.map((field) => [field, { terms: { field, size: FACET_VALUES_MAX, order: [{ _count: 'desc' }, { _key: 'asc' }] } }]),
  );
}

/**
 * Relevance then newest when there is text; newest otherwise (there is no
 * relevance without text). `id` breaks every tie so pages never overlap.
 */
function sortClauses(query: SearchQuery, hasText: boolean): Clause[] {
  const newest: Clause = { updatedAt: { order: 'desc' } };
  const tieBreak: Clause = { id: { order: 'asc' } };
  if (query.sort === 'name') return [{ 'name.sort': { order: 'asc' } }, tieBreak];
  if (query.sort === 'popular') return [{ downloads: { order: 'desc' } }, newest, tieBreak];
  if (query.sort === 'relevance' && hasText) return [{ _score: { order: 'desc' } }, newest, tieBreak];
  return [newest, tieBreak];
}

export function buildSearchRequest(query: SearchQuery): SearchRequestBody {
  const q = query.q?.trim() ?? '';
  const hasText = q.length > 0;
  const bool: Clause = { filter: filterClauses(query) };
  if (hasText) {
    bool.must = [textClause(q)];
    bool.should = exactNameClauses(q);
  }
  const aggs = facetAggregations(query);
  return {
    from: (query.page - 1) * query.limit,
    size: query.limit,
    // Counts exactly up to the deepest reachable result and stops there, like the
    // memory engine: `total` means the same on both (10,000 reads "10,000 or more").
    // https://elastic.co/guide/en/elasticsearch/reference/7.1/search-request-track-total-hits.html
    track_total_hits: MAX_RESULT_WINDOW,
    _source: [...PUBLIC_SOURCE_FIELDS],
    query: hasText && query.sort === 'relevance' ? withPopularity({ bool }) : { bool },
    sort: sortClauses(query, hasText),
    ...(aggs ? { aggs } : {}),
  };
}

/**
 * Spellings for the words of `q` (term suggester, on the unstemmed words of
 * name and description): only terms found in more documents than the word
 * itself (`suggest_mode: popular`), most frequent first. The engine keeps
 * those within the typo rules and searches the best spelling.
 * https://elastic.co/guide/en/elasticsearch/reference/6.5/search-suggesters-term.html
 */
export function buildSuggestRequest(q: string): { size: 0; suggest: Record<string, unknown> } {
  const term = (field: string) => ({
    term: { field, suggest_mode: 'popular', sort: 'frequency', max_edits: 2, prefix_length: 1, min_word_length: TYPO_MIN_LENGTH, size: 5 },
  });
  return { size: 0, suggest: { text: q, name: term('name.words'), description: term('description.words') } };
}
