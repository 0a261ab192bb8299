/**
 * What the one-word path collects while it reads: every match taken, with
 * its best term so far and its name bonus, and, once the count is known,
 * the page those matches rank into, kept live so the reading can stop as
 * soon as nothing left can enter it.
 */
import type { DocumentStore } from './document-store';
import type { DocFilter } from './doc-filter';
import { RankedPage } from './ranked-page';
import type { Scratch } from './scratch';
import type { Matches, TermGroup } from './types';

export class MatchCollector {
  /**
   * every match taken, in the order read: lists are read from their end, and later ordinals are mostly
   * newer states, so equal scores come mostly newest first (the order ties rank in) and the page
   * refuses most of a broad word's ties at its heap's root instead of each replacing it
   */
  readonly docs: number[] = [];
  private readonly mark: number;
  private page: RankedPage | undefined;
  // the scratch arrays, read once: take() runs for every posting read
  private readonly marks: Int32Array;
  private readonly best: Float32Array;
  private readonly base: Float64Array;
  private readonly scores: Float32Array;

  /**
   * `bonus`: what a document's name adds to its best term (name-rules.ts), for a document taken
   * unseeded; `capped`: the count is known to reach the cap before anything is read.
   */
  constructor(
    private readonly store: DocumentStore,
    private readonly scratch: Scratch,
    private readonly filter: DocFilter,
    private readonly window: number,
    private readonly bonus: ((doc: number) => number) | undefined,
    private readonly capped: boolean,
  ) {
    this.mark = scratch.begin(1);
    ({ marks: this.marks, best: this.best, base: this.base, scores: this.scores } = scratch);
  }

  /** Whether `doc` was taken or seeded. */
  has(doc: number): boolean {
    return this.marks[doc] === this.mark;
  }

  /** Takes `doc` (live, passing the filter) with its final score: no term read later changes it. */
  seed(doc: number, score: number): void {
    this.marks[doc] = this.mark;
    this.best[doc] = Number.POSITIVE_INFINITY;
    this.scores[doc] = score;
    this.docs.push(doc);
  }

  /**
   * A posting of `doc` contributing `v`: a document taken already keeps its best term (base[] holds
   * its name bonus, added as the reference adds it); a new one is taken if live and passing the filter.
   */
  take(doc: number, contribution: number): void {
    // the term's contribution as the reference (and Lucene) holds it, a float32, before the bonus is added to it
    const v = Math.fround(contribution);
    const { best, base, scores } = this;
    if (this.marks[doc] === this.mark) {
      if (v > best[doc]!) {
        best[doc] = v;
        scores[doc] = v + base[doc]!;
        this.page?.offer(doc);
      }
      return;
    }
    if (!this.store.isLive(doc) || !this.filter.passes(doc)) return;
    this.marks[doc] = this.mark;
    best[doc] = v;
    base[doc] = this.bonus ? this.bonus(doc) : 0;
    scores[doc] = v + base[doc]!;
    this.docs.push(doc);
    this.page?.offer(doc);
  }

  /** Whether the count is known to reach the cap: from then on, only what can enter the page is read. */
  countKnown(): boolean {
    return this.capped || this.docs.length >= this.store.options.countCap;
  }

  /** The page of what was taken, made on first use and kept live from then on. */
  livePage(): RankedPage {
    if (!this.page) {
      this.page = new RankedPage(this.window, this.scores, this.store, this.scratch.pagePlaces);
      for (const doc of this.docs) this.page.offer(doc);
    }
    return this.page;
  }

  /** Every match and its count; or, once the count is known, the page, the capped count and the word's group to count facets with. */
  matches(group: TermGroup): Matches {
    const { scores } = this;
    if (!this.countKnown()) return { docs: this.docs, total: this.docs.length, scores };
    return {
      docs: this.page ? this.page.sorted() : this.docs,
      total: this.store.options.countCap,
      scores,
      partial: [group],
    };
  }
}
