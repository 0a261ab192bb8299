/**
 * The types the memory engine's modules share, in one module below all of
 * them: a module imports from here or from modules it builds on, never from
 * one that builds on it.
 */
import type { CatalogItemState } from '@skills/common';

/** What the index keeps of an item state (a CatalogItem is one too). */
export type IndexableItem = Pick<
  CatalogItemState,
  'id' | 'slug' | 'name' | 'description' | 'type' | 'category' | 'tags' | 'updatedAt' | 'details' | 'trust'
>;

/** The dictionary terms one query word stands for, each with its form weight (domain/ranking.ts). */
export interface TermGroup {
  ids: number[];
  weights: number[];
  /** postings to read */
  cost: number;
}

/** A term of a one-word query as it is read: its factor, the largest name bonus a document of its list can add, and their bound. */
export interface ReadTerm {
  id: number;
  factor: number;
  /** the largest name bonus a document not seeded can earn in this list */
  cap: number;
  /** the best score a document of this list can reach, a hair above it (floating-point slack) */
  bound: number;
}

/** What a query matched, before it is ranked into a page. */
export interface Matches {
  /** every match, or (early stop) the best `window` (or a superset of them) */
  docs: number[];
  /** matches counted, capped at MemoryIndexOptions.countCap (the 10,000-result window) */
  total: number;
  /** score by ordinal, valid for `docs` */
  scores: Float32Array;
  /**
   * the words' term groups when `docs` may be only part of the matches (the
   * early stop stopped): everyMatch() reads them again to count facets
   */
  partial?: TermGroup[];
}

/** Each live document's place in the newest-first order, worked out once per change (DocumentStore.newestRanks). */
export interface NewestRanks {
  rank: Int32Array;
  docs: Int32Array;
  changes: number;
  /** scratch for the impact orders built with these ranks: a document's position in the list being ordered */
  positions: Int32Array;
}
