/**
 * Translates a validated SearchQuery into the body of `POST /<alias>/_search`.
 * Pure functions: the engine sends their output unchanged.
 *
 * A text search is one request whose cost does not grow with the catalog's
 * vocabulary: every clause is a term lookup (words, stems, a prefix through
 * `index_prefixes`, name keys), and typo runs add `fuzzy` clauses with a
 * bounded number of expansions. The score (docs/elasticsearch.md "Query"):
 * - a query word is a `dis_max` of its forms: the word as typed (1), its
 *   Porter2 stem (0.9), for the last word its completions (0.6), in typo
 *   runs its spellings one edit (0.5) or two (0.4) away; BM25 scores each
 *   form over `words`/`stems`, where name, description and tags are repeated
 *   by their weights (item-document.ts);
 * - every word is required (`bool.must`), the word scores are summed and
 *   multiplied by the item's stored popularity (`function_score`,
 *   `field_value_factor`); filters add nothing (`bool.filter`);
 * - the name's bonus is one optional clause: the first of the exact name
 *   (1,000), a misspelt name in a typo run (200) and a name the query
 *   begins (the stored bonus, 100–300) that the item meets.
 */
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { EXACT_NAME_BONUS, STEM_WEIGHT, TWO_TYPOS_WEIGHT, TYPO_NAME_BONUS, TYPO_WEIGHT } from '../../domain/ranking';
import { typoBudget } from '../../domain/spelling';
import { stemOf, type QueryTerm } from '../../domain/text-analysis';
import { FACET_VALUES_MAX, SEARCHABLE_VERDICTS, type FacetField, type PolicyFilter, type SearchQuery } from '../search-engine';
import { PREFIX_MAX, PREFIX_MIN } from './index-mapping';
import { hybridQuery, semanticQuery, wordMatchesAggregation } from './meaning-query';

type Query = estypes.QueryDslQueryContainer;

/** A search body as the engine sends it (it adds the index and the preference). */
export type SearchBody = Omit<estypes.SearchRequest, 'index' | 'preference'>;

/** Only these items are ever returned (tombstones carry no words, but may match a browse). */
export const SEARCHABLE: Query[] = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];

/** What a completion of the last word weighs against the word as typed. */
export const COMPLETION_WEIGHT = 0.6;
/**
 * Spellings a `fuzzy` clause may expand to, most frequent first. With at
 * most 8 words, two such clauses each and the misspelt-name clauses, a
 * query stays far below the 1,024 clauses of the smallest node
 * (`indices.query.bool.max_clause_count`).
 */
export const FUZZY_EXPANSIONS = 20;
/**
 * The same for a word of a misspelt name, which has two such clauses for the
 * name and two for the slug: the query then stays near 600 clauses.
 */
export const NAME_FUZZY_EXPANSIONS = 5;

/** The text part of a search. */
export interface TextPlan {
  /** the required words (stop words dropped but for the last; domain/text-analysis.ts queryTerms) */
  words: QueryTerm[];
  /** every word of the query joined by one space (stop words included): what names are compared with */
  key: string;
  /** a typo run: words match their spellings within the typo budget, and a misspelt name earns its bonus */
  typos: boolean;
}

function typoClauses(word: string): Query[] {
  const budget = typoBudget(word);
  if (budget === 0) return [];
  const fuzzy = (fuzziness: number, boost: number): Query => ({
    // Two edits only with the first letter kept, as the memory dictionary finds them (domain/spelling.ts).
    fuzzy: { words: { value: word, fuzziness, prefix_length: fuzziness - 1, max_expansions: FUZZY_EXPANSIONS, transpositions: true, boost } },
  });
  return budget === 2 ? [fuzzy(1, TYPO_WEIGHT), fuzzy(2, TWO_TYPOS_WEIGHT)] : [fuzzy(1, TYPO_WEIGHT)];
}

/** One required word: the best of its forms counts (tie_breaker 0). */
function wordQuery(word: QueryTerm, typos: boolean): Query {
  const clauses: Query[] = [{ term: { words: { value: word.text } } }];
  const stem = stemOf(word.text);
  clauses.push({ term: { stems: { value: stem, boost: STEM_WEIGHT } } });
  if (word.prefix && word.text.length >= PREFIX_MIN && word.text.length <= PREFIX_MAX) {
    clauses.push({ prefix: { vocabulary: { value: word.text, boost: COMPLETION_WEIGHT } } });
  }
  if (typos) clauses.push(...typoClauses(word.text));
  return { dis_max: { queries: clauses, tie_breaker: 0 } };
}

function exactName(key: string): Query {
  return { bool: { should: [{ term: { exactKey: key } }, { term: { slugKey: key } }], minimum_should_match: 1 } };
}

/** A name or slug of as many words as the key, each within its word's typo budget ("i:" keeps the position). */
function misspeltName(keyWords: readonly string[]): Query {
  const wordByWord = (positions: string, count: string): Query => ({
    bool: {
      filter: [
        ...keyWords.map((word, i): Query => {
          const value = `${i}:${word}`;
          const budget = typoBudget(word);
          if (budget === 0) return { term: { [positions]: value } };
          // the words' rule (typoClauses): one edit anywhere, two with the first letter kept
          const fuzzy = (fuzziness: number): Query => ({
            fuzzy: {
              [positions]: { value, fuzziness, prefix_length: `${i}:`.length + fuzziness - 1, max_expansions: NAME_FUZZY_EXPANSIONS, transpositions: true },
            },
          });
          return budget === 1 ? fuzzy(1) : { bool: { should: [fuzzy(1), fuzzy(2)], minimum_should_match: 1 } };
        }),
        { term: { [count]: keyWords.length } },
      ],
    },
  });
  return { bool: { should: [wordByWord('namePositions', 'nameWordCount'), wordByWord('slugPositions', 'slugWordCount')], minimum_should_match: 1 } };
}

/**
 * Names the key begins: its words at their positions, the last one as a
 * prefix (one term of `index_prefixes`). A last word too long for those
 * prefixes must be the name's word whole, so no vocabulary-wide `prefix`
 * query is ever sent.
 */
function namesBegun(keyWords: readonly string[]): Query[] {
  return keyWords.map((word, i): Query => {
    const value = `${i}:${word}`;
    const last = i === keyWords.length - 1;
    return last && value.length <= PREFIX_MAX ? { prefix: { namePositions: { value } } } : { term: { namePositions: value } };
  });
}

/**
 * The name's bonus: the first of the exclusive name rules an item meets, in
 * order (the exact name, a misspelt one in typo runs, a name the query
 * begins), as one `function_score` whose functions each carry their rule as
 * a filter and `score_mode: first` applies the first that matches
 * (`FunctionScoreQuery` in elastic/elasticsearch:
 * server/src/main/java/org/elasticsearch/common/lucene/search/function/FunctionScoreQuery.java).
 * Each rule is then built once: as `must_not` of the later rules, the
 * misspelt-name filter was expanded twice, its fuzzy term lookups a third of a
 * typo run's cost on the node. The last function (`weight: 0`, no filter)
 * gives an item no rule matches 0 rather than function_score's default 1.
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-function-score-query
 */
function nameBonus(plan: TextPlan): Query {
  const functions: estypes.QueryDslFunctionScoreContainer[] = [{ filter: exactName(plan.key), weight: EXACT_NAME_BONUS }];
  const keyWords = plan.key.split(' ');
  if (plan.typos && keyWords.some((word) => typoBudget(word) > 0)) {
    functions.push({ filter: misspeltName(keyWords), weight: TYPO_NAME_BONUS });
  }
  if (plan.key.length >= 2) {
    // the stored bonus exactly: field_value_factor (factor 1) as the item's score
    functions.push({ filter: { bool: { filter: namesBegun(keyWords) } }, field_value_factor: { field: 'leadBonus', missing: 0 } });
  }
  functions.push({ weight: 0 });
  return { function_score: { query: { match_all: {} }, functions, score_mode: 'first', boost_mode: 'replace' } };
}

function textQuery(plan: TextPlan): Query {
  const words: Query = { bool: { must: plan.words.map((word) => wordQuery(word, plan.typos)) } };
  return {
    bool: {
      must: [{ function_score: { query: words, functions: [{ field_value_factor: { field: 'popularity', missing: 1 } }], boost_mode: 'multiply' } }],
      should: [nameBonus(plan)],
    },
  };
}

/**
 * Exact filters in filter context: no scoring, cacheable. Every tag is
 * required. The verdicts shown are always listed (`terms`), and the list
 * never holds `malicious`: a blocked item is never returned, whatever the
 * query (a blocked item also carries no words: item-document.ts).
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-terms-query
 */
function filterClauses(query: SearchQuery): Query[] {
  const filters: Query[] = [...SEARCHABLE];
  if (query.category !== undefined) filters.push({ term: { category: query.category } });
  if (query.type !== undefined) filters.push({ term: { type: query.type } });
  for (const tag of query.tags ?? []) filters.push({ term: { tags: tag } });
  filters.push({ terms: { verdict: [...(query.trust ?? SEARCHABLE_VERDICTS)] } });
  if (query.verifiedPublisher !== undefined) filters.push({ term: { publisherVerified: query.verifiedPublisher } });
  return [...filters, ...policyClauses(query.policy)];
}

/**
 * A workspace policy's own filters (domain/search-policy.ts): each list is
 * one `terms` clause, the denied slugs one inside `must_not`, all in filter
 * context like the request's filters. Licences are matched on `licenseKey`,
 * the licence lower-cased as the policy lists them.
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-bool-query
 */
function policyClauses(policy: PolicyFilter | undefined): Query[] {
  if (!policy) return [];
  const clauses: Query[] = [];
  if (policy.publishers) clauses.push({ terms: { publisher: policy.publishers } });
  if (policy.licenses) clauses.push({ terms: { licenseKey: policy.licenses } });
  if (policy.deniedSlugs) clauses.push({ bool: { must_not: [{ terms: { slug: policy.deniedSlugs } }] } });
  return clauses;
}

/** The document field each facet counts (item-document.ts). */
export const FACET_SOURCE_FIELDS: Record<FacetField, string> = {
  category: 'category',
  type: 'type',
  trust: 'verdict',
  verifiedPublisher: 'publisherVerified',
};

/**
 * Counts per value over every match, most frequent first then by value, as
 * the memory index ranks them; an item with no category counts under ""
 * there, so `missing` puts it in the same bucket here.
 */
function facetAggregations(query: SearchQuery): Record<string, estypes.AggregationsAggregationContainer> | undefined {
  if (!query.facets) return undefined;
  return Object.fromEntries(
    query.facets.map((field) => [
      field,
      {
        terms: {
          field: FACET_SOURCE_FIELDS[field],
          size: FACET_VALUES_MAX,
          order: [{ _count: 'desc' }, { _key: 'asc' }],
          ...(field === 'category' ? { missing: '' } : {}),
        },
      },
    ]),
  );
}

/**
 * The memory engine's orders: relevance then newest then id; newest then id;
 * name then id; downloads then newest then id. The id is compared as its two
 * numbers (item-document.ts idKeys), and newest is the index's own sort.
 */
function sortClauses(query: SearchQuery, hasText: boolean): estypes.SortCombinations[] {
  const newest: estypes.SortCombinations = { updatedAt: { order: 'desc' } };
  const tieBreak: estypes.SortCombinations[] = [{ idHigh: { order: 'asc' } }, { idLow: { order: 'asc' } }];
  if (query.sort === 'name') return [{ nameSort: { order: 'asc' } }, ...tieBreak];
  if (query.sort === 'popular') return [{ downloads: { order: 'desc' } }, newest, ...tieBreak];
  if (query.sort === 'relevance' && hasText) return [{ _score: { order: 'desc' } }, newest, ...tieBreak];
  return [newest, ...tieBreak];
}

/** Whether the query runs with its meaning (hybrid or semantic mode, its vector given). */
export function hasMeaning(query: SearchQuery): query is SearchQuery & { meaning: Float32Array } {
  return query.meaning !== undefined && (query.mode === 'hybrid' || query.mode === 'semantic');
}

/** The text part: the word query alone, or with the query's meaning (meaning-query.ts). */
function textSearch(query: SearchQuery, filter: Query[], plan: TextPlan): Query {
  if (!hasMeaning(query)) return { bool: { filter, must: [textQuery(plan)] } };
  // the words as the neighbours' own score counts them: each alone, as typed
  const words = plan.words.map((word) => wordQuery(word, false));
  return query.mode === 'semantic' ? semanticQuery(filter, words, query.meaning) : hybridQuery(filter, textQuery(plan), words, query.meaning);
}

/** A page of the query: its text plan when it has words, a browse of the filters otherwise. */
export function buildSearchRequest(query: SearchQuery, plan?: TextPlan): SearchBody {
  const filter = filterClauses(query);
  const counted = plan && query.mode === 'hybrid' && hasMeaning(query) ? wordMatchesAggregation(textQuery(plan)) : undefined;
  const aggs = counted ? { ...facetAggregations(query), ...counted } : facetAggregations(query);
  return {
    from: (query.page - 1) * query.limit,
    size: query.limit,
    // Counts exactly up to the deepest reachable result and stops there, like the
    // memory engine: `total` means the same on both (10,000 reads "10,000 or more").
    // https://elastic.co/docs/reference/elasticsearch/rest-apis/search-api#search-api-track-total-hits
    track_total_hits: MAX_RESULT_WINDOW,
    query: plan ? textSearch(query, filter, plan) : { bool: { filter } },
    sort: sortClauses(query, plan !== undefined),
    ...(aggs ? { aggs } : {}),
  };
}

/** How many items a query finds, and nothing else: the total of a suggested spelling. */
export function buildCountRequest(query: SearchQuery, plan: TextPlan): SearchBody {
  return { size: 0, track_total_hits: MAX_RESULT_WINDOW, query: { bool: { filter: filterClauses(query), must: [textQuery(plan)] } } };
}

/**
 * The term suggester's spellings of each typo-eligible word, and how many
 * searchable items hold each word as typed (a `global` count, whatever the
 * query matched): what the suggestion's best spelling is chosen from
 * (domain/spelling.ts). Both ride on the typo run's request.
 * https://elastic.co/docs/reference/elasticsearch/rest-apis/search-suggesters#term-suggester
 */
export function suggestSections(words: readonly string[]): Pick<SearchBody, 'suggest' | 'aggs'> {
  if (words.length === 0) return {};
  const suggest: estypes.SearchSuggester = {};
  const counts: Record<string, Query> = {};
  words.forEach((word, i) => {
    suggest[`w${i}`] = {
      text: word,
      term: {
        field: 'words',
        suggest_mode: 'always',
        max_edits: 2,
        prefix_length: 0,
        min_word_length: 4,
        // absolute: a word every item holds still gets its spellings (the default leaves words in over 1 % alone)
        max_term_freq: 2 ** 31 - 1,
        size: 20,
        sort: 'frequency',
        string_distance: 'damerau_levenshtein',
      },
    };
    counts[`w${i}`] = { term: { words: word } };
  });
  return { suggest, aggs: { typed: { global: {}, aggs: { words: { filters: { filters: counts } } } } } };
}
