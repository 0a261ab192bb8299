/**
 * The per-query scratch arrays of the matchers, sized to the store and
 * reused by every query: searches are synchronous, so one set per store
 * serves them all without allocating per query.
 */
import type { DocumentStore } from './document-store';

/** Arrays by ordinal, each valid for the documents the current query marked. */
export class Scratch {
  /** which query, and which of its groups, a document has matched (begin()) */
  marks = new Int32Array(0);
  /** the document's score as stored: a float32 */
  scores = new Float32Array(0);
  /** the document's best contribution in the current group (a word scores its best term) */
  best = new Float32Array(0);
  /**
   * term at a time: the sum of the groups before the current one; one word: the document's name
   * bonus. Sums are kept in double and rounded to float32 once per stored score, as Lucene sums a
   * conjunction's clauses.
   */
  base = new Float64Array(0);
  /** base plus best: every group so far */
  sums = new Float64Array(0);
  /** a kept document's place in the heap of the page being ranked (RankedPage) */
  pagePlaces = new Int32Array(0);
  private stamp = 0;
  /** one bit set per query word, reused: which documents hold any of its terms */
  private groupBits: Uint32Array[] = [];
  /** by term id: the stamp of the query whose names may begin with that term */
  leadStamps = new Int32Array(0);
  private leadStamp = 0;

  /** A fresh stamp for marking terms in `leadStamps` (sized to `terms`). */
  beginLeads(terms: number): number {
    if (this.leadStamps.length < terms) this.leadStamps = new Int32Array(Math.ceil(terms * 1.25) + 1024);
    if (++this.leadStamp >= 0x7fffffff) {
      this.leadStamps.fill(0);
      this.leadStamp = 1;
    }
    return this.leadStamp;
  }

  /** Room for `docs` ordinals (a quarter more when it grows, so a growing catalog reallocates seldom). */
  reserve(docs: number): void {
    if (this.marks.length < docs) {
      const size = Math.ceil(docs * 1.25) + 1024;
      this.marks = new Int32Array(size);
      this.scores = new Float32Array(size);
      this.best = new Float32Array(size);
      this.base = new Float64Array(size);
      this.sums = new Float64Array(size);
      this.pagePlaces = new Int32Array(size);
      this.stamp = 0;
    }
  }

  /** The bit set of query word `g`, `words` long and cleared. */
  bitsOf(g: number, words: number): Uint32Array {
    let bits = this.groupBits[g];
    if (!bits || bits.length < words) this.groupBits[g] = bits = new Uint32Array(Math.ceil(words * 1.25) + 64);
    bits.fill(0, 0, words);
    return bits;
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

/** The store's scratch, with room for every ordinal it has handed out. */
export function scratchFor(store: DocumentStore): Scratch {
  let scratch = scratchOf.get(store);
  if (!scratch) scratchOf.set(store, (scratch = new Scratch()));
  scratch.reserve(store.capacity);
  return scratch;
}
