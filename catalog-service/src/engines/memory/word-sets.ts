/**
 * Query words as bit sets over the ordinals (bit `doc & 31` of word
 * `doc >>> 5`): a word's set is the OR of its terms' (a long list keeps its
 * own, a short one sets a bit per posting), and the filter's category and
 * type sets are ANDed in, so the matches of broad words are counted and
 * visited 32 ordinals at a step, in ordinal order, without the random reads
 * of a mark array. What several words and filtered or faceted words use
 * (docs/search.md "Top k and counts").
 */
import type { DocumentStore } from './document-store';
import { termFactor } from '../../domain/ranking';
import type { DocFilter } from './doc-filter';
import type { Scratch } from './scratch';
import type { TermGroup } from './types';
import { lowestBit, popcount } from './bits';
import type { PostingList } from './postings';

/** What looking a document up in one term's list costs, in postings read (a binary search). */
export const LOOKUP_STEPS = 16;

/** A word's term as a match is scored: its list, idf × the group's weight, and its own bit set for a long list. */
export interface WordTerm {
  list: PostingList;
  factor: number;
  bits: Uint32Array | undefined;
}

export interface WordSets {
  /** per word, its terms that hold live documents */
  terms: WordTerm[][];
  /** per word, the documents holding any of its terms */
  sets: Uint32Array[];
  /** 32-bit words covering every ordinal */
  words: number;
  /** whether a document holds every word (filters aside) */
  matches(doc: number): boolean;
}

/** The query words' bit sets (in the scratch, one per word) and their terms as matches are scored. */
export function wordSets(store: DocumentStore, scratch: Scratch, groups: readonly TermGroup[]): WordSets {
  const live = store.live;
  const isLive = (doc: number) => store.isLive(doc);
  const terms = groups.map((group) =>
    group.ids.flatMap((id, t): WordTerm[] => {
      const list = store.postings[id];
      if (!list || list.live === 0) return [];
      const dense = list.hasLiveBits || list.length >= store.capacity * store.options.denseListShare;
      return [
        {
          list,
          factor: termFactor(group.weights[t]!, list.live, live),
          bits: dense ? list.liveBits(isLive) : undefined,
        },
      ];
    }),
  );
  const words = (store.capacity + 31) >>> 5;
  const sets = terms.map((groupTerms, g) => orOf(scratch.bitsOf(g, words), groupTerms, store));
  const matches = (doc: number): boolean => {
    const word = doc >>> 5;
    const bit = 1 << (doc & 31);
    for (const set of sets) if ((set[word]! & bit) === 0) return false;
    return true;
  };
  return { terms, sets, words, matches };
}

/** The ordinals of 32-bit word `w` holding every word and passing the filter's category and type. */
function matchesAt(sets: readonly Uint32Array[], filter: DocFilter, w: number): number {
  let all = filter.mask(w);
  for (let g = 0; g < sets.length && all !== 0; g++) all &= sets[g]![w]!;
  return all;
}

/** Matches passing the filter, counted up to `cap`. */
export function countMatches({ sets, words }: WordSets, filter: DocFilter, cap: number): number {
  let count = 0;
  for (let w = 0; w < words && count < cap; w++) {
    let all = matchesAt(sets, filter, w);
    if (filter.byCodesOnly) count += popcount(all);
    else for (; all !== 0; all &= all - 1) if (filter.passes(w * 32 + lowestBit(all))) count++;
  }
  return Math.min(count, cap);
}

/** Visits every match passing the filter, in ordinal order. */
export function forEachMatch({ sets, words }: WordSets, filter: DocFilter, visit: (doc: number) => void): void {
  for (let w = 0; w < words; w++) {
    // only the set bits are visited, lowest first: a broad word sets a few of each 32
    for (let all = matchesAt(sets, filter, w); all !== 0; all &= all - 1) {
      const doc = w * 32 + lowestBit(all);
      if (filter.byCodesOnly || filter.passes(doc)) visit(doc);
    }
  }
}

/** For each match passing the filter, adds 1 to `counts[keys[doc]]`: facets tallied without a call per match. */
export function tallyMatches(matchSets: WordSets, filter: DocFilter, keys: Int32Array, counts: Int32Array): void {
  if (!filter.byCodesOnly) return forEachMatch(matchSets, filter, (doc) => counts[keys[doc]!]!++);
  for (let w = 0; w < matchSets.words; w++) {
    for (let all = matchesAt(matchSets.sets, filter, w); all !== 0; all &= all - 1)
      counts[keys[w * 32 + lowestBit(all)]!]!++;
  }
}

/** A document's best contribution among a word's terms (0: none), as the reference stores it (a float32). */
export function bestOf(terms: readonly WordTerm[], doc: number): number {
  let best = 0;
  const word = doc >>> 5;
  const bit = 1 << (doc & 31);
  for (const { list, factor, bits } of terms) {
    if (bits && (word >= bits.length || (bits[word]! & bit) === 0)) continue;
    const at = list.indexOf(doc);
    if (at >= 0) best = Math.max(best, Math.fround(factor * list.weights[at]!));
  }
  return best;
}

/** `out` |= the documents of `terms`: a long list's own set word by word, a short list's postings bit by bit. */
function orOf(out: Uint32Array, terms: readonly WordTerm[], store: DocumentStore): Uint32Array {
  for (const { list, bits } of terms) {
    if (bits) {
      for (let w = 0; w < bits.length && w < out.length; w++) out[w]! |= bits[w]!;
      continue;
    }
    const { docs, length } = list;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      if (store.isLive(doc)) out[doc >>> 5]! |= 1 << (doc & 31);
    }
  }
  return out;
}
