/**
 * Compact posting lists: per term, the ordinals of the documents holding it
 * and the term's saturated weight in each (Int32Array + Float32Array, grown
 * by doubling). Removing a document does not touch its lists: readers skip
 * dead ordinals, and a list is compacted once half of it is dead. A long list
 * also keeps its positions by weight, highest first, so a query that only
 * needs the best documents of a broad word can stop reading early.
 */

import { clearBit, setBit } from './bits';
import type { NewestRanks } from './types';

export class PostingList {
  docs = new Int32Array(4);
  weights = new Float32Array(4);
  length = 0;
  dead = 0;
  /** the highest weight ever added: an upper bound of any posting's weight (compaction never raises it) */
  maxWeight = 0;
  /** the highest name-begins bonus of a document whose name starts with this term (never lowered) */
  maxLeadBonus = 0;
  /**
   * bit n set: some document here has a one-word name or slug of n letters (bit 31: 31 or more;
   * never cleared). A typo run's bound adds the misspelt-name bonus only to a list that could hold
   * such a name of about the key's length: most broad words' lists cannot.
   */
  oneWordNames = 0;
  private bits: Uint32Array | undefined;
  /** positions 0..ordered-1 by weight, highest first; later positions were added since and are unordered */
  private byWeight: Int32Array | undefined;
  private ordered = 0;

  add(doc: number, weight: number, oneWordNames = 0): void {
    this.oneWordNames |= oneWordNames;
    if (this.bits) this.bits = setBit(this.bits, doc);
    if (this.length === this.docs.length) {
      const docs = new Int32Array(Math.max(4, this.length * 2));
      docs.set(this.docs);
      const weights = new Float32Array(Math.max(4, this.length * 2));
      weights.set(this.weights);
      this.docs = docs;
      this.weights = weights;
    }
    if (weight > this.maxWeight) this.maxWeight = weight;
    this.docs[this.length] = doc;
    this.weights[this.length] = weight;
    this.length++;
  }

  /**
   * documents whose name's first word is this term (dead ones are skipped, and swept out with the
   * postings), with their weight here: a query seeds a broad word's thousands of leaders without
   * searching the list for each one's posting
   */
  leaders = new Int32Array(0);
  leaderWeights = new Float32Array(0);
  leaderCount = 0;

  /** The document just added here has this term as its name's first word, and this name-begins bonus. */
  addLeader(doc: number, bonus: number): void {
    if (bonus > this.maxLeadBonus) this.maxLeadBonus = bonus;
    if (this.leaderCount === this.leaders.length) {
      const size = Math.max(4, this.leaderCount * 2);
      const leaders = new Int32Array(size);
      leaders.set(this.leaders);
      const weights = new Float32Array(size);
      weights.set(this.leaderWeights);
      this.leaders = leaders;
      this.leaderWeights = weights;
    }
    this.leaders[this.leaderCount] = doc;
    this.leaderWeights[this.leaderCount++] =
      this.docs[this.length - 1] === doc ? this.weights[this.length - 1]! : this.weightOf(doc);
  }

  /**
   * Gives back what doubling left unused (up to half of every list): after a
   * bulk load most lists grow no more. A list that grows again doubles again.
   */
  trim(): void {
    if (this.docs.length > this.length + (this.length >> 3) + 4) {
      this.docs = this.docs.slice(0, this.length);
      this.weights = this.weights.slice(0, this.length);
    }
    if (this.leaders.length > this.leaderCount + (this.leaderCount >> 3) + 4) {
      this.leaders = this.leaders.slice(0, this.leaderCount);
      this.leaderWeights = this.leaderWeights.slice(0, this.leaderCount);
    }
  }

  /** `doc`, a document of this list, died: it is skipped from now on, and swept out once half of the list is dead. */
  markDead(doc: number, isLive: (doc: number) => boolean): void {
    this.dead++;
    if (this.bits) clearBit(this.bits, doc);
    if (this.dead * 2 < this.length) return;
    let live = 0;
    for (let i = 0; i < this.length; i++) {
      const doc = this.docs[i] as number;
      if (!isLive(doc)) continue;
      this.docs[live] = doc;
      this.weights[live] = this.weights[i] as number;
      live++;
    }
    this.length = live;
    this.dead = 0;
    let leaders = 0;
    for (let i = 0; i < this.leaderCount; i++) {
      if (!isLive(this.leaders[i]!)) continue;
      this.leaders[leaders] = this.leaders[i]!;
      this.leaderWeights[leaders++] = this.leaderWeights[i]!;
    }
    this.leaderCount = leaders;
    this.byWeight = undefined;
    this.ordered = 0;
  }

  /**
   * Positions by weight, highest first, equal weights newest first (by
   * their place in the newest-first order; positions of documents dead when
   * it is built come last), covering the first `ordered` postings; rebuilt
   * once a quarter more were added since, so a write does not re-sort a
   * broad word's list on every query.
   */
  impactOrder(ranks: () => NewestRanks): { order: Int32Array; ordered: number } {
    if (!this.byWeight || this.length > this.ordered * 1.25) {
      this.byWeight = this.byImpact(ranks());
      this.ordered = this.length;
    }
    return { order: this.byWeight, ordered: this.ordered };
  }

  /**
   * Each posting becomes one unsigned 64-bit number, its weight's bits above
   * its document's newest-first place, and the numbers are sorted natively:
   * a comparator sort would call a closure per comparison and break ties on
   * id strings, and a broad word's list is long.
   */
  private byImpact({ rank, docs: byRank, positions }: NewestRanks): Int32Array {
    const { docs, weights, length } = this;
    const keys = new BigUint64Array(length);
    // the keys' two 32-bit halves, written as numbers (a BigInt per posting would cost more than the sort)
    const halves = new Uint32Array(keys.buffer);
    const dead: number[] = [];
    let n = 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const place = rank[doc] ?? -1;
      if (place < 0) {
        dead.push(i);
        continue;
      }
      positions[doc] = i;
      weightBits[0] = weights[i]!;
      // the place in the low half, the weight in the high one (positive float32 weights order as
      // their bits do: the complement puts the highest first)
      halves[2 * n + LOW] = place;
      halves[2 * n + HIGH] = 0x7fffffff - weightWord[0]!;
      n++;
    }
    keys.subarray(0, n).sort();
    const order = new Int32Array(length);
    for (let j = 0; j < n; j++) order[j] = positions[byRank[halves[2 * j + LOW]!]!]!;
    for (let j = 0; j < dead.length; j++) order[n + j] = dead[j]!;
    return order;
  }

  /**
   * The live documents as a bit set (bit `doc & 31` of word `doc >>> 5`), made the first time a
   * query asks (only long lists are asked: MemoryIndexOptions.denseListShare) and kept current by add and markDead.
   * Several broad words are intersected and counted a word of 32 documents at a time.
   */
  liveBits(isLive: (doc: number) => boolean): Uint32Array {
    if (!this.bits) {
      // ordinals are ascending: the last one sizes the set
      const bits = new Uint32Array(this.length === 0 ? 0 : (this.docs[this.length - 1]! >>> 5) + 1);
      for (let i = 0; i < this.length; i++) {
        const doc = this.docs[i]!;
        if (isLive(doc)) bits[doc >>> 5]! |= 1 << (doc & 31);
      }
      this.bits = bits;
    }
    return this.bits;
  }

  get hasLiveBits(): boolean {
    return this.bits !== undefined;
  }

  /** The position of `doc` in the list (lists are sorted by ordinal), or -1. */
  indexOf(doc: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.docs[mid]!;
      if (at === doc) return mid;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The weight of `doc` here, 0 when it has none. */
  weightOf(doc: number): number {
    const at = this.indexOf(doc);
    return at >= 0 ? this.weights[at]! : 0;
  }

  /** Live documents (the document frequency used by idf). */
  get live(): number {
    return this.length - this.dead;
  }
}

const weightBits = new Float32Array(1);
/** which 32-bit half of a 64-bit number is the low one, in this machine's byte order */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;
const weightWord = new Uint32Array(weightBits.buffer);
