import type { MemoryIndexOptions } from '../../../../src/engines/memory/memory-index-options';

/**
 * Thresholds small enough for a few dozen items to cross each one (the
 * engine's defaults: memory-index-options.ts). A page window never exceeds
 * the count cap, as the search API's result window never does.
 */
export const SMALL_THRESHOLDS = {
  countCap: 20,
  wordSetsFrom: 24,
  impactOrderFrom: 8,
  rareFormsRead: 12,
  maxLookupTerms: 64,
  pendingMerge: 4,
  recentOnRead: 4,
  sweepFrom: 8,
  rebuildWhenDeadAbove: 10,
  servedItemsKept: 3,
} satisfies Partial<MemoryIndexOptions>;
