/**
 * Every threshold of the memory index in one object: where a plan changes
 * (read a word or intersect bit sets, read a list whole or by weight), where
 * counting stops, and when a structure is merged, swept or rebuilt. Each
 * default is the value the engine runs with; tests pass small ones, so a
 * few dozen items cross every threshold.
 */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';

export interface MemoryIndexOptions {
  /**
   * matches are counted up to this many (the result window): totals and facet counts stop there,
   * and once a query is known to reach it, the early stops read only what can still enter the page
   */
  countCap: number;
  /** a query word with this many postings or more is matched through bit sets (word-sets.ts); fewer are read */
  wordSetsFrom: number;
  /** a list this long or longer keeps an order by weight, so it can be left early; a shorter one is read whole */
  impactOrderFrom: number;
  /**
   * a list holding this share of the ordinals or more keeps a bit set of its live documents:
   * OR-ing its words is cheaper than setting a bit per posting, and the set costs at most half
   * the list's own memory
   */
  denseListShare: number;
  /**
   * several words: postings of their rarest terms read whole before the best word is read by
   * weight (many-words.ts); defaults to twice wordSetsFrom
   */
  rareFormsRead: number;
  /** several words: past this many terms in all, looking each match's terms up costs more than intersecting them */
  maxLookupTerms: number;
  /** new dictionary terms wait unsorted until this many, then merge into the sorted view in one pass */
  pendingMerge: number;
  /** recent additions a browse order walks beside its sorted array before it merges them in */
  recentOnRead: number;
  /** a browse order at least this long sweeps its dead entries out once they are a quarter of it */
  sweepFrom: number;
  /** the index is rebuilt without its dead ordinals once they outnumber both the live ones and this many */
  rebuildWhenDeadAbove: number;
  /**
   * items kept as served (object and JSON, ~0.8 KB each) for the pages that serve them again; the
   * first served is the first let go, so a client paging through the whole catalog does not grow
   * the index by the catalog's size
   */
  servedItemsKept: number;
}

const DEFAULTS: Omit<MemoryIndexOptions, 'rareFormsRead'> = {
  countCap: MAX_RESULT_WINDOW,
  wordSetsFrom: 10_000,
  impactOrderFrom: 2_048,
  denseListShare: 1 / 16,
  maxLookupTerms: 64,
  pendingMerge: 4_096,
  recentOnRead: 256,
  sweepFrom: 1_024,
  rebuildWhenDeadAbove: 100_000,
  servedItemsKept: 25_000,
};

/** The options with every one not given at its default. */
export function memoryIndexOptions(given: Partial<MemoryIndexOptions> = {}): Readonly<MemoryIndexOptions> {
  const options = { ...DEFAULTS, ...given };
  return Object.freeze({ ...options, rareFormsRead: given.rareFormsRead ?? 2 * options.wordSetsFrom });
}
