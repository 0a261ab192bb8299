/**
 * Translates a validated SearchQuery and its plan (query-plan.ts) into the
 * body of `POST /<alias>/_search`. A pure function: the wire tests assert
 * its exact output, and the engine sends it unchanged.
 *
 * The score is the memory engine's (docs/search.md "Ranking"), computed by
 * Lucene from the weights each document stores:
 * - a query word is a `dis_max` (tie_breaker 0: the best term counts) of
 *   one `rank_feature` query per term, `linear`, boosted by the term's
 *   factor: boost × stored weight, both float32, as the memory engine
 *   multiplies them (https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-rank-feature-query);
 * - every word is required (`bool.must`), in any field, and the word scores
 *   are summed; filters add nothing (`bool.filter`);
 * - the name's bonus is one optional clause of several that exclude each
 *   other: the exact name (1,000), a misspelt name in a typo run (200), a
 *   name the query begins (the document's stored bonus).
 */
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { EXACT_NAME_BONUS, TYPO_NAME_BONUS } from '../../domain/ranking';
import { FACET_VALUES_MAX, type SearchQuery } from '../search-engine';
import { PUBLIC_SOURCE_FIELDS, STEM_SEPARATOR } from './item-document';
import type { WordGroup } from './query-plan';
import { SEARCHABLE, type SearchBody } from './term-requests';

type Query = estypes.QueryDslQueryContainer;

/** The text part of a search, once its words are planned. */
export interface TextPlan {
  groups: WordGroup[];
  /** the query's words joined by one space (stop words included): what names are compared with */
  key: string;
  /** a typo run: typo terms are in the groups, and a misspelt name earns its bonus */
  typos: boolean;
  /** typo runs: per word of the key, the name words it may stand for (itself first) */
  nearWords?: string[][];
}

/**
 * The leading-word rule (memory: usesLeadingWord): in a one-word query
 * outside typo runs, a name the query begins scores its first word's
 * contribution plus its bonus, whatever else it holds.
 */
function usesLeadingWord(plan: TextPlan): boolean {
  return !plan.typos && plan.groups.length === 1 && plan.key.length >= 2 && !plan.key.includes(' ');
}

function wordQuery(group: WordGroup): Query {
  const clauses: Query[] = group.terms.map(({ term, factor }) => ({ rank_feature: { field: `terms.${term}`, linear: {}, boost: factor } }));
  // the word's terms left out of the scored list still make it match, with no score
  if (group.formsFallback) clauses.push({ constant_score: { filter: { prefix: { stemForms: `${group.stem}${STEM_SEPARATOR}` } }, boost: 0 } });
  if (group.completionsFallback) clauses.push({ constant_score: { filter: { prefix: { words: group.word.text } }, boost: 0 } });
  return clauses.length === 1 ? clauses[0]! : { dis_max: { queries: clauses, tie_breaker: 0 } };
}

function exactName(key: string): Query {
  return { bool: { should: [{ term: { exactKey: key } }, { term: { slugKey: key } }], minimum_should_match: 1 } };
}

/** A name or slug of as many words as the key, each one of the key word's near words. */
function misspeltName(nearWords: string[][]): Query {
  const wordByWord = (positions: string, count: string): Query => ({
    bool: {
      filter: [
        ...nearWords.map((words, i): Query => ({ terms: { [positions]: words.map((word) => `${i}:${word}`) } })),
        { term: { [count]: nearWords.length } },
      ],
    },
  });
  return { bool: { should: [wordByWord('namePositions', 'nameWordCount'), wordByWord('slugPositions', 'slugWordCount')], minimum_should_match: 1 } };
}

/** The stored name-begins bonus, exactly: field_value_factor (factor 1) replacing the query's score. */
function storedBonus(query: Query): Query {
  return { function_score: { query, functions: [{ field_value_factor: { field: 'leadBonus' } }], boost_mode: 'replace' } };
}

/** The exclusive name clauses of a query outside the leading-word rule. */
function nameBonuses(plan: TextPlan): Query[] {
  const exact = exactName(plan.key);
  const clauses: Query[] = [{ constant_score: { filter: exact, boost: EXACT_NAME_BONUS } }];
  const notBefore: Query[] = [exact];
  if (plan.typos && plan.nearWords && plan.nearWords.some((words) => words.length > 1)) {
    const misspelt = misspeltName(plan.nearWords);
    clauses.push({ constant_score: { filter: { bool: { filter: [misspelt], must_not: [exact] } }, boost: TYPO_NAME_BONUS } });
    notBefore.push(misspelt);
  }
  if (plan.key.length >= 2) clauses.push(storedBonus({ bool: { filter: [{ prefix: { exactKey: plan.key } }], must_not: notBefore } }));
  return clauses;
}

/**
 * A begun name's score under the leading-word rule, in float32 as Lucene
 * and the memory engine compute it: its first word's factor (params.f, by
 * term) × that word's stored weight, plus its stored bonus. Painless:
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-script-score-query
 */
export const LEADING_WORD_SCRIPT =
  "Object f = params.f.get(doc['leadTerm'].value); " +
  "float s = f == null ? 0f : ((Number) f).floatValue() * (float) doc['leadWeight'].value; " +
  "return s + (float) doc['leadBonus'].value;";

function leadingWordQuery(plan: TextPlan): Query {
  const group = plan.groups[0]!;
  const exact = exactName(plan.key);
  const begun: Query = { bool: { filter: [{ prefix: { exactKey: plan.key } }], must_not: [exact] } };
  const factors = Object.fromEntries(group.terms.map(({ term, factor }) => [term, factor]));
  return {
    bool: {
      should: [
        { bool: { must: [wordQuery(group)], must_not: [begun], should: [{ constant_score: { filter: exact, boost: EXACT_NAME_BONUS } }] } },
        { script_score: { query: begun, script: { source: LEADING_WORD_SCRIPT, params: { f: factors } } } },
      ],
      minimum_should_match: 1,
    },
  };
}

function textQuery(plan: TextPlan): Query {
  if (usesLeadingWord(plan)) return leadingWordQuery(plan);
  return { bool: { must: plan.groups.map(wordQuery), should: nameBonuses(plan) } };
}

/** Exact filters in filter context: no scoring, cacheable. Every tag is required. */
function filterClauses(query: SearchQuery): Query[] {
  const filters: Query[] = [...SEARCHABLE];
  if (query.category !== undefined) filters.push({ term: { category: query.category } });
  if (query.type !== undefined) filters.push({ term: { type: query.type } });
  for (const tag of query.tags ?? []) filters.push({ term: { tags: tag } });
  return filters;
}

/** Counts per value over every match, most frequent first then by value, as the memory index ranks them. */
function facetAggregations(query: SearchQuery): Record<string, estypes.AggregationsAggregationContainer> | undefined {
  if (!query.facets) return undefined;
  return Object.fromEntries(
    query.facets.map((field) => [field, { terms: { field, size: FACET_VALUES_MAX, order: [{ _count: 'desc' }, { _key: 'asc' }] } }]),
  );
}

/** The memory engine's orders: relevance then newest then id; newest then id; name then id; downloads then newest. */
function sortClauses(query: SearchQuery, hasText: boolean): estypes.SortCombinations[] {
  const newest: estypes.SortCombinations = { updatedAt: { order: 'desc' } };
  const tieBreak: estypes.SortCombinations = { id: { order: 'asc' } };
  if (query.sort === 'name') return [{ nameSort: { order: 'asc' } }, tieBreak];
  if (query.sort === 'popular') return [{ downloads: { order: 'desc' } }, newest, tieBreak];
  if (query.sort === 'relevance' && hasText) return [{ _score: { order: 'desc' } }, newest, tieBreak];
  return [newest, tieBreak];
}

/** A page of the query: its text plan when it has words, a browse of the filters otherwise. */
export function buildSearchRequest(query: SearchQuery, plan?: TextPlan): SearchBody {
  const filter = filterClauses(query);
  const aggs = facetAggregations(query);
  return {
    from: (query.page - 1) * query.limit,
    size: query.limit,
    // Counts exactly up to the deepest reachable result and stops there, like the
    // memory engine: `total` means the same on both (10,000 reads "10,000 or more").
    // https://elastic.co/docs/reference/elasticsearch/rest-apis/search-api#search-api-track-total-hits
    track_total_hits: MAX_RESULT_WINDOW,
    _source: [...PUBLIC_SOURCE_FIELDS],
    query: plan ? { bool: { filter, must: [textQuery(plan)] } } : { bool: { filter } },
    sort: sortClauses(query, plan !== undefined),
    ...(aggs ? { aggs } : {}),
  };
}
