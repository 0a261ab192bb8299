/**
 * What the query matchers share: per-query scratch arrays, the term groups a
 * query word expands to, the idf, filters and the exact-name test.
 */
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';

export const STEM_WEIGHT = 0.9;
export const TYPO_WEIGHT = 0.5;
/** An exact-name (or slug) match comes before any partial one. */
export const EXACT_NAME_BONUS = 1_000;

export interface TermGroup {
  ids: number[];
  weights: number[];
  /** postings to read */
  cost: number;
}

export interface Matches {
  /** every match, or (early stop) a superset of the best `window` */
  docs: number[];
  /** matches counted, capped at the 10,000-result window */
  total: number;
  /** score by ordinal, valid for `docs` */
  scores: Float32Array;
}

/** Scratch arrays sized to the store, reused by every query (searches are synchronous). */
export class Scratch {
  marks = new Int32Array(0);
  scores = new Float32Array(0);
  best = new Float32Array(0);
  stamp = 0;

  reserve(docs: number): void {
    if (this.marks.length < docs) {
      const size = Math.ceil(docs * 1.25) + 1024;
      this.marks = new Int32Array(size);
      this.scores = new Float32Array(size);
      this.best = new Float32Array(size);
      this.stamp = 0;
    }
  }

  /** A fresh range of mark values for a query of `groups` groups: a document marked `base + g` has matched groups 0..g. */
  begin(groups: number): number {
    if (this.stamp + groups + 1 >= 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    const base = this.stamp + 1;
    this.stamp += groups + 1;
    return base;
  }
}

const scratchOf = new WeakMap<DocumentStore, Scratch>();

export function scratchFor(store: DocumentStore): Scratch {
  let scratch = scratchOf.get(store);
  if (!scratch) scratchOf.set(store, (scratch = new Scratch()));
  scratch.reserve(store.capacity);
  return scratch;
}

export /** BM25's idf: rare terms weigh more, a term in every document still weighs a little. */
function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** A query's category and type filters as codes: checked with two integer comparisons per document. */
export class DocFilter {
  readonly none: boolean;
  /** a category or type no document ever had: nothing can match */
  readonly impossible: boolean;
  private readonly category: number;
  private readonly type: number;

  constructor(
    private readonly store: DocumentStore,
    query: SearchQuery,
  ) {
    const category = query.category === undefined ? -1 : store.codeOf(`c:${query.category}`);
    const type = query.type === undefined ? -1 : store.codeOf(`t:${query.type}`);
    this.impossible = category === undefined || type === undefined;
    this.category = category ?? -1;
    this.type = type ?? -1;
    this.none = query.category === undefined && query.type === undefined;
  }

  passes(doc: number): boolean {
    return (this.category < 0 || this.store.categoryCodes[doc] === this.category) && (this.type < 0 || this.store.typeCodes[doc] === this.type);
  }
}

export function isExactName(store: DocumentStore, doc: number, key: string): boolean {
  return store.exactKeys[doc] === key || store.slugKeys[doc] === key;
}
