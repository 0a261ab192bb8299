/**
 * Search by meaning beside search by words (docs/search.md "Search by
 * intent"): every weight and threshold of the fusion, the same in every
 * engine, in one module.
 *
 * A hybrid search is the word query as it always was, OR the `k` nearest
 * items to the query's vector (filters applied to them as to the
 * words). An item's score is the sum of what each side gives it:
 *
 *   words(d)   = allWords + the word query's score (BM25 × popularity + name bonus), when d holds every word
 *   meaning(d) = meaning × (1 + cos(q, d)) / 2 + someWords × someWords(d), when d is a neighbour
 *   someWords(d) = the word query's per-word scores of the words d does hold (no name bonus)
 *
 * so a neighbour that also holds some of the words ranks above one that
 * holds none, and an item holding every word and near in meaning ranks
 * highest. `(1 + cos) / 2` is Elasticsearch's score of a `dot_product` kNN
 * match of unit vectors: both engines add the same number. The name bonuses
 * (1,000 for the exact name, 100–300 for a name the query begins) stay far
 * above what the meaning side can add (at most `meaning` + the words'
 * own scores), so a name query keeps its first place.
 */
import { queryTerms } from './text-analysis';

/** What a search runs: words only, words and meaning fused, or meaning only. */
export type SearchMode = 'lexical' | 'hybrid' | 'semantic';
export const SEARCH_MODES: readonly SearchMode[] = ['lexical', 'hybrid', 'semantic'];

/** Every weight and threshold of the fusion: DEFAULT_MEANING_WEIGHTS, or others where a run measures them. */
export interface MeaningWeights {
  /** neighbours the meaning side adds (Elasticsearch's kNN `k`) */
  k: number;
  /** candidates the approximate search explores to find them (Elasticsearch's `num_candidates`) */
  candidates: number;
  /**
   * a neighbour less similar than this (cosine) is no neighbour: a query
   * near nothing finds nothing by meaning, rather than the k least far items
   */
  minCosine: number;
  /** what the closest possible neighbour adds, times its similarity (1 + cos) / 2 */
  meaning: number;
  /** what a neighbour's words weigh beside its meaning (the words' scores, summed over the words it holds) */
  someWords: number;
  /** what holding every word adds in a hybrid search, on top of the words' score */
  allWords: number;
  /**
   * the meaning side runs for queries of at least this many words (stop
   * words aside): one or two words are a name, a prefix or a topic the
   * words already answer (measured: as good on intent, better on
   * description queries), and the long tail of short queries pays nothing
   * for the model
   */
  minWords: number;
}

export const DEFAULT_MEANING_WEIGHTS: Readonly<MeaningWeights> = Object.freeze({
  k: 50,
  candidates: 200,
  minCosine: 0.2,
  meaning: 24,
  someWords: 0,
  allWords: 20,
  minWords: 3,
});

/** The mode a search runs in: the asked one (hybrid by default), lexical when the model is absent or the query too short for meaning. */
export function modeToRun(
  asked: SearchMode | undefined,
  q: string | undefined,
  hasModel: boolean,
  weights = DEFAULT_MEANING_WEIGHTS,
): SearchMode {
  if (!hasModel || q === undefined) return 'lexical';
  const mode = asked ?? 'hybrid';
  if (mode === 'hybrid' && queryTerms(q).length < weights.minWords) return 'lexical';
  return mode;
}

/** Elasticsearch's kNN score of a `dot_product` match of unit vectors, which the memory engine adds alike. */
export function similarityScore(cosine: number): number {
  return (1 + cosine) / 2;
}

/** What the meaning side adds to a neighbour (see the module's comment). */
export function meaningScore(cosine: number, someWords: number, weights = DEFAULT_MEANING_WEIGHTS): number {
  return weights.meaning * similarityScore(cosine) + weights.someWords * someWords;
}
