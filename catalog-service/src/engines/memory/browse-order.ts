/**
 * Every live document in one order (newest first, or by name), kept up to
 * date without re-sorting the catalog on each write: a sorted array plus a
 * small sorted buffer of recent additions, merged on read; dead entries are
 * skipped and swept out once they are a quarter of the array.
 */
import type { MemoryIndexOptions } from './memory-index-options';

export class BrowseOrder {
  /** live documents in the order */
  size = 0;
  private main: Int32Array = new Int32Array(0);
  private mainDead = 0;
  private recent: number[] = [];
  private recentSorted = true;

  /** `compare(a, b) < 0` when a comes first; must be a total order (ids break ties). */
  constructor(
    private readonly compare: (a: number, b: number) => number,
    private readonly isLive: (doc: number) => boolean,
    private readonly options: Pick<MemoryIndexOptions, 'recentOnRead' | 'sweepFrom'>,
  ) {}

  /**
   * Nothing is sorted here: the next read merges (forEach), so a bulk load of
   * n documents sorts once, when it settles or is first read, instead of
   * merging every few thousand additions.
   */
  add(doc: number): void {
    this.size++;
    this.recent.push(doc);
    this.recentSorted = false;
  }

  /** A document of the order died: its entry is skipped until the next sweep. */
  markDead(): void {
    this.size--;
    this.mainDead++;
    if (this.mainDead * 4 > this.main.length && this.main.length > this.options.sweepFrom) this.merge();
  }

  /** Calls `visit` in order until it returns false. */
  forEach(visit: (doc: number) => boolean): void {
    // Walking two lists costs a comparison per step: past a few hundred recent entries, merge once instead.
    if (this.recent.length > this.options.recentOnRead) this.merge();
    this.walk(visit);
  }

  private walk(visit: (doc: number) => boolean): void {
    if (!this.recentSorted) {
      this.recent.sort(this.compare);
      this.recentSorted = true;
    }
    const { main, recent, compare, isLive } = this;
    let i = 0;
    let j = 0;
    while (i < main.length || j < recent.length) {
      let doc: number;
      if (j >= recent.length || (i < main.length && compare(main[i] as number, recent[j] as number) < 0))
        doc = main[i++] as number;
      else doc = recent[j++] as number;
      if (isLive(doc) && !visit(doc)) return;
    }
  }

  /** Every document in the order, live and sorted, once merged (the one array a bulk load sorts). */
  merged(): Int32Array {
    this.merge();
    return this.main;
  }

  /**
   * Takes `sorted` (this order's live documents, already in its order: a
   * bulk load sorts the unfiltered order once and hands each filter its
   * share) in place of everything held.
   */
  replaceWith(sorted: Int32Array): void {
    this.main = sorted;
    this.size = sorted.length;
    this.mainDead = 0;
    this.recent = [];
    this.recentSorted = true;
  }

  /** Rebuilds the sorted array from the live entries (bulk load: one sort instead of many merges). */
  merge(): void {
    const live: number[] = [];
    this.walk((doc) => {
      live.push(doc);
      return true;
    });
    this.main = Int32Array.from(live);
    this.mainDead = 0;
    this.recent = [];
    this.recentSorted = true;
  }
}
