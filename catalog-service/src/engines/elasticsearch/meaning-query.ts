/**
 * The meaning side of a hybrid or semantic search, added to the word query
 * of query-builder.ts in the same `_search` (docs/elasticsearch.md "Search
 * by meaning"). Pure functions, kept apart from the word query so either can
 * change alone. The scores are domain/hybrid-ranking.ts's:
 *
 *   bool.filter: the query's filters (as for the words)
 *   bool.should: [ the word query,
 *                  bool { must: knn (k nearest, the same filters, boost `meaning`),
 *                         should: the words each alone (boost `someWords`) } ]
 *   minimum_should_match: 1
 *
 * so a hit is a word match, one of the k nearest, or both, and its score
 * the sum of what each side gives it. The `knn` query (not the top-level
 * `knn` section) is what can sit inside a `bool` beside other clauses; its
 * `k` and `filter` make it the k nearest items that pass the filters,
 * `similarity` drops those less similar than `minCosine`, and a
 * `dot_product` match of unit vectors scores (1 + cos) / 2.
 * https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-knn-query
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.19/query-dsl-knn-query.html
 */
import type { estypes } from '@elastic/elasticsearch';
import { DEFAULT_MEANING_WEIGHTS as WEIGHTS } from '../../domain/hybrid-ranking';

type Query = estypes.QueryDslQueryContainer;

/** The document field holding an item's vector (index-mapping.ts). */
export const VECTOR_FIELD = 'vector';

/**
 * The key of the aggregation counting the word query's own matches (wordMatchesAggregation,
 * read by search-flow.ts), and the `_name` of its clause in a hybrid query (not read today).
 * https://www.elastic.co/docs/reference/query-languages/query-dsl/query-dsl-bool-query#named-queries
 */
export const WORDS_CLAUSE = 'words';

/** The k nearest items to `vector` that pass `filter`, scored `meaning` × (1 + cos) / 2 (domain/hybrid-ranking.ts). */
export function nearestQuery(vector: Float32Array, filter: readonly Query[]): Query {
  return {
    knn: {
      field: VECTOR_FIELD,
      query_vector: Array.from(vector),
      k: WEIGHTS.k,
      num_candidates: WEIGHTS.candidates,
      // the raw similarity (the cosine of unit vectors), not the score
      similarity: WEIGHTS.minCosine,
      filter: [...filter],
      boost: WEIGHTS.meaning,
    },
  };
}

/**
 * The neighbours, each also scored for the query words it holds: each word
 * (its forms as the word query scores them, `words`) is optional here, and
 * their sum is multiplied by the item's popularity as in the word query.
 * https://www.elastic.co/docs/reference/query-languages/query-dsl/query-dsl-function-score-query
 */
function neighboursQuery(vector: Float32Array, filter: readonly Query[], words: readonly Query[]): Query {
  const nearest = nearestQuery(vector, filter);
  if (words.length === 0 || WEIGHTS.someWords === 0) return nearest;
  const someWords: Query = {
    function_score: {
      query: { bool: { should: [...words], minimum_should_match: 1 } },
      functions: [{ field_value_factor: { field: 'popularity', missing: 1 } }],
      boost_mode: 'multiply',
      boost: WEIGHTS.someWords,
    },
  };
  return { bool: { must: [nearest], should: [someWords] } };
}

/**
 * A hybrid search's query: the word query (`text`, its words `words`) or
 * the neighbours of `vector`, under `filter`.
 */
export function hybridQuery(
  filter: readonly Query[],
  text: Query,
  words: readonly Query[],
  vector: Float32Array,
): Query {
  return {
    bool: {
      filter: [...filter],
      should: [
        { bool: { must: [text], should: allWordsBonus(), _name: WORDS_CLAUSE } },
        neighboursQuery(vector, filter, words),
      ],
      minimum_should_match: 1,
    },
  };
}

/**
 * What holding every word adds in a hybrid search: a constant beside the word query.
 * https://www.elastic.co/docs/reference/query-languages/query-dsl/query-dsl-constant-score-query
 */
function allWordsBonus(): Query[] {
  return WEIGHTS.allWords === 0 ? [] : [{ constant_score: { filter: { match_all: {} }, boost: WEIGHTS.allWords } }];
}

/** A semantic search's query: the neighbours of `vector` alone, scored as in a hybrid search. */
export function semanticQuery(filter: readonly Query[], words: readonly Query[], vector: Float32Array): Query {
  return { bool: { filter: [...filter], must: [neighboursQuery(vector, filter, words)] } };
}

/**
 * How many items hold every word, whatever the neighbours add: the count
 * that decides the typo run and the suggestion, as the word query's total
 * does in a lexical search. One `filter` aggregation, in the same request.
 * https://www.elastic.co/docs/reference/aggregations/search-aggregations-bucket-filter-aggregation
 */
export function wordMatchesAggregation(text: Query): Record<string, estypes.AggregationsAggregationContainer> {
  return { [WORDS_CLAUSE]: { filter: text } };
}
