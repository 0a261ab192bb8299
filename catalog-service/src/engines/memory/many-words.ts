/**
 * Several query words ranked by relevance, without reading every posting of
 * every word (the full intersection of two broad words cost 26 ms a query at
 * a million items). Three steps, each reading as little as it can:
 *
 * 1. Membership: one bit set per word, the OR of its terms (a long list keeps
 *    its own bit set, a short one sets a bit per posting). A document matches
 *    when its bit is set in every word's set.
 * 2. Count: the sets are ANDed 32 documents at a time and counted until the
 *    10,000 cap is reached (under filters, each match is checked).
 * 3. Rank (MaxScore over the best word): the word whose best contribution is
 *    highest is read term by term, each long list by weight, and each new
 *    match is scored exactly (its terms looked up in every word); reading
 *    stops once a posting's weight plus every other word's best possible
 *    contribution cannot reach the page. Names the query is or begins are
 *    seeded first with their bonus: every other match earns none.
 *
 * The scores are the ones the term-at-a-time reference gives (query-matcher's
 * run(): the same words in the same order, each word's best term), which the
 * tests compare page by page.
 */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import { idf, type DocFilter, type Matches, type Scratch, type TermGroup } from './match-support';
import { EXACT_NAME_BONUS } from './name-bonus';
import { DENSE_LIST_SHARE, IMPACT_ORDER_FROM, popcount, type PostingList } from './postings';
import { TopK } from './top-k';

/** A driving word with fewer postings than this is intersected term at a time: that is cheaper than a bit set per word. */
export const MANY_WORDS_FROM = 10_000;
/** Past this many terms in all (long prefixes' completions), looking each match's terms up costs more than reading them. */
const MAX_LOOKUP_TERMS = 64;

interface Term {
  list: PostingList;
  factor: number;
  bits: Uint32Array | undefined;
}

/**
 * The page candidates and capped count of a query of several words (groups
 * sorted cheapest first, as the reference sums them), or undefined where the
 * term-at-a-time intersection is the better plan.
 */
export function runManyWords(store: DocumentStore, scratch: Scratch, query: SearchQuery, filter: DocFilter, groups: readonly TermGroup[], key: string): Matches | undefined {
  const termCount = groups.reduce((n, g) => n + g.ids.length, 0);
  if (groups.length < 2 || groups[0]!.cost < MANY_WORDS_FROM || termCount > MAX_LOOKUP_TERMS) return undefined;
  const { terms, sets, words, matches } = wordSets(store, scratch, groups);
  const total = countMatches(sets, words, filter);

  const { marks, scores } = scratch;
  const mark = scratch.begin(1);
  // the exact text score, summed word by word in the reference's order
  const textScore = (doc: number): number => {
    let score = 0;
    for (const groupTerms of terms) score = Math.fround(score + bestOf(groupTerms, doc));
    return score;
  };
  const window = query.page * query.limit;
  const top = new TopK(window, (a, b) => scores[a]! > scores[b]! || (scores[a] === scores[b] && store.compareNewest(a, b) < 0));
  const seed = (doc: number, bonus: number): void => {
    if (marks[doc] === mark || !store.isLive(doc) || !matches(doc) || !filter.passes(doc)) return;
    marks[doc] = mark;
    scores[doc] = Math.fround(textScore(doc) + bonus);
    top.offer(doc);
  };
  for (const doc of store.exactlyNamed(key)) seed(doc, EXACT_NAME_BONUS);
  // A name the key begins starts with the key's first word: that word's leader list holds them all.
  const first = store.dictionary.idOf(key.slice(0, key.indexOf(' ')));
  const leaders = first === undefined ? undefined : store.postings[first];
  for (let i = 0; leaders && i < leaders.leaderCount; i++) {
    const doc = leaders.leaders[i]!;
    if (marks[doc] !== mark && matches(doc) && (store.exactKeys[doc] as string).startsWith(key)) seed(doc, store.leadBonus[doc]!);
  }

  // Every other match earns no name bonus: its score is at most one word's contribution plus the others' best.
  const bounds = terms.map((groupTerms) => Math.max(0, ...groupTerms.map((t) => t.factor * t.list.maxWeight)));
  const driver = bounds.indexOf(Math.max(...bounds));
  const rest = bounds.reduce((sum, b, g) => (g === driver ? sum : sum + b), 0) * (1 + 1e-6);
  const consider = (doc: number): void => {
    if (marks[doc] === mark) return;
    marks[doc] = mark;
    if (!store.isLive(doc) || !matches(doc) || !filter.passes(doc)) return;
    scores[doc] = textScore(doc);
    top.offer(doc);
  };
  // Nothing scoring `score` or less can enter the page once it is full: below its worst, or level and older.
  const cannotEnter = (score: number, doc: number): boolean => {
    const worst = top.worst();
    if (worst === undefined) return false;
    return score < scores[worst]! || (score === scores[worst] && store.compareNewest(doc, worst) > 0);
  };
  const driving = [...terms[driver]!].sort((a, b) => b.factor * b.list.maxWeight - a.factor * a.list.maxWeight);
  for (const { list, factor } of driving) {
    const worst = top.worst();
    if (worst !== undefined && (factor * list.maxWeight + rest) * (1 + 1e-6) < scores[worst]!) break;
    const { docs, weights, length } = list;
    if (length < IMPACT_ORDER_FROM) {
      for (let i = length - 1; i >= 0; i--) consider(docs[i]!);
      continue;
    }
    const { order, ordered } = list.impactOrder(store.compareNewest);
    for (let i = length - 1; i >= ordered; i--) consider(docs[i]!); // added since the order was built
    for (let j = 0; j < ordered; j++) {
      const i = order[j]!;
      // equal weights come newest first: once one cannot enter, neither can any after it
      if (cannotEnter(Math.fround((factor * weights[i]! + rest) * (1 + 1e-6)), docs[i]!)) break;
      consider(docs[i]!);
    }
  }
  return { docs: top.sorted(), total, scores, partial: [...groups] };
}

/** Each word's terms with their factors and bit sets, each word's set of documents, and the test of a match. */
function wordSets(store: DocumentStore, scratch: Scratch, groups: readonly TermGroup[]) {
  const live = store.live;
  const isLive = (doc: number) => store.isLive(doc);
  const terms: Term[][] = groups.map((group) =>
    group.ids.flatMap((id, t) => {
      const list = store.postings[id];
      if (!list || list.live === 0) return [];
      const dense = list.hasLiveBits || list.length >= store.capacity * DENSE_LIST_SHARE;
      return [{ list, factor: group.weights[t]! * idf(list.live, live), bits: dense ? list.liveBits(isLive) : undefined }];
    }),
  );
  const words = (store.capacity + 31) >>> 5;
  const sets = terms.map((groupTerms, g) => wordBits(scratch.bitsOf(g, words), groupTerms, store));
  const matches = (doc: number): boolean => {
    const word = doc >>> 5;
    const bit = 1 << (doc & 31);
    for (const set of sets) if ((set[word]! & bit) === 0) return false;
    return true;
  };
  return { terms, sets, words, matches };
}

/** Visits every document holding every word (live, not yet filtered), 32 ordinals at a time. */
export function forEachMatchOfAll(store: DocumentStore, scratch: Scratch, groups: readonly TermGroup[], visit: (doc: number) => void): void {
  const { sets, words } = wordSets(store, scratch, groups);
  for (let w = 0; w < words; w++) {
    let all = sets[0]![w]!;
    for (let g = 1; g < sets.length && all !== 0; g++) all &= sets[g]![w]!;
    for (let bit = 0; all !== 0 && bit < 32; bit++) if ((all & (1 << bit)) !== 0) visit(w * 32 + bit);
  }
}

/** A word's bit set: the OR of its terms' (a long list's own set, a short list's postings). */
function wordBits(out: Uint32Array, terms: readonly Term[], store: DocumentStore): Uint32Array {
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

/** Documents in every set that pass the filter, counted up to the 10,000 cap. */
function countMatches(sets: readonly Uint32Array[], words: number, filter: DocFilter): number {
  let count = 0;
  for (let w = 0; w < words && count < MAX_RESULT_WINDOW; w++) {
    let all = sets[0]![w]!;
    for (let g = 1; g < sets.length && all !== 0; g++) all &= sets[g]![w]!;
    if (all === 0) continue;
    if (filter.none) {
      count += popcount(all);
      continue;
    }
    for (let bit = 0; bit < 32; bit++) if ((all & (1 << bit)) !== 0 && filter.passes(w * 32 + bit)) count++;
  }
  return Math.min(count, MAX_RESULT_WINDOW);
}

/** A document's best contribution among a word's terms (0: none), as the reference stores it. */
function bestOf(terms: readonly Term[], doc: number): number {
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
