/**
 * A page ranked by relevance (the higher score first, equal scores newest
 * first, the order browsing lists them in), kept live while the postings
 * are read: what the page holds so far and the bar a document must pass to
 * enter it. The early stops read a posting only while it can still pass.
 */
import type { DocumentStore } from './document-store';
import { TopK } from './top-k';

/** `better(a, b)`: a ranks before b by relevance (`scores` by ordinal). */
export function byRelevance(scores: Float32Array, store: DocumentStore): (a: number, b: number) => boolean {
  return (a, b) => scores[a]! > scores[b]! || (scores[a] === scores[b] && store.compareNewest(a, b) < 0);
}

export class RankedPage {
  private readonly top: TopK;

  /**
   * The best `window` documents by `scores`. With `positions` (scratch by
   * ordinal), a kept document may be offered again after its score grew.
   */
  constructor(
    window: number,
    private readonly scores: Float32Array,
    private readonly store: DocumentStore,
    positions?: Int32Array,
  ) {
    this.top = new TopK(window, byRelevance(scores, store), positions);
  }

  /** Offers `doc` at its score now (again, after its score grew). */
  offer(doc: number): void {
    this.top.offer(doc);
  }

  /** The page's worst kept score; -Infinity until the page is full. */
  threshold(): number {
    const worst = this.top.worst();
    return worst === undefined ? Number.NEGATIVE_INFINITY : this.scores[worst]!;
  }

  /** Whether a document scoring at most `score` cannot enter the page: it is full, and the score is below its worst kept one, or level with it and the document older. */
  cannotEnter(score: number, doc: number): boolean {
    const worst = this.top.worst();
    if (worst === undefined) return false;
    const bar = this.scores[worst]!;
    return score < bar || (score === bar && this.store.compareNewest(doc, worst) > 0);
  }

  /** The kept documents, best first. */
  sorted(): number[] {
    return this.top.sorted();
  }
}
