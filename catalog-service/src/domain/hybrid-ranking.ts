/**
 * Search by meaning beside search by words (docs/search.md "Search by
 * intent"): every weight and threshold of the fusion, the same in every
 * engine, in one module.
 *
 * A hybrid search is the word query as it always was, OR the `MEANING_K`
 * nearest items to the query's vector (filters applied to them as to the
 * words). An item's score is the sum of what each side gives it:
 *
 *   words(d)   = the word query's score (BM25 × popularity + name bonus), when d holds every word
 *   meaning(d) = MEANING_WEIGHT × (1 + cos(q, d)) / 2 + SOME_WORDS_WEIGHT × someWords(d), when d is a neighbour
 *   someWords(d) = the word query's per-word scores of the words d does hold (no name bonus)
 *
 * so a neighbour that also holds some of the words ranks above one that
 * holds none, and an item holding every word and near in meaning ranks
 * highest. `(1 + cos) / 2` is Elasticsearch's score of a `dot_product` kNN
 * match of unit vectors: both engines add the same number. The name bonuses
 * (1,000 for the exact name, 100–300 for a name the query begins) stay far
 * above what the meaning side can add (at most MEANING_WEIGHT + the words'
 * own scores), so a name query keeps its first place.
 */
import { queryTerms } from './text-analysis';

/** What a search runs: words only, words and meaning fused, or meaning only. */
export type SearchMode = 'lexical' | 'hybrid' | 'semantic';
export const SEARCH_MODES: readonly SearchMode[] = ['lexical', 'hybrid', 'semantic'];

/** Neighbours the meaning side adds (Elasticsearch's kNN `k`). */
export const MEANING_K = 50;
/** Candidates the approximate search explores to find them (Elasticsearch's `num_candidates`). */
export const MEANING_CANDIDATES = 200;
/**
 * A neighbour less similar than this is no neighbour: a query near nothing
 * finds nothing by meaning, rather than the k least far items.
 */
export const MEANING_MIN_COSINE = 0.2;
/** What the closest possible neighbour adds, times its similarity (1 + cos) / 2. */
export const MEANING_WEIGHT = 24;
/** What a neighbour's words weigh beside its meaning (the words' scores, summed over the words it holds). */
export const SOME_WORDS_WEIGHT = 1;
/**
 * The meaning side runs for queries of at least this many words (stop words
 * aside): a one-word query is a name, a prefix or a topic the words already
 * answer, and its neighbours would only push names down.
 */
export const MEANING_MIN_WORDS = 2;

/** The mode a search runs in: the asked one (hybrid by default), lexical when the model is absent or the query too short for meaning. */
export function modeToRun(asked: SearchMode | undefined, q: string | undefined, hasModel: boolean): SearchMode {
  if (!hasModel || q === undefined) return 'lexical';
  const mode = asked ?? 'hybrid';
  if (mode === 'hybrid' && queryTerms(q).length < MEANING_MIN_WORDS) return 'lexical';
  return mode;
}

/** Elasticsearch's kNN score of a `dot_product` match of unit vectors, which the memory engine adds alike. */
export function similarityScore(cosine: number): number {
  return (1 + cosine) / 2;
}

/** What the meaning side adds to a neighbour (see the module's comment). */
export function meaningScore(cosine: number, someWords: number): number {
  return MEANING_WEIGHT * similarityScore(cosine) + SOME_WORDS_WEIGHT * someWords;
}
