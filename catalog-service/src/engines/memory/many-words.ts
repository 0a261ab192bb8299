/**
 * Several query words ranked by relevance, without reading every posting of
 * every word (the full intersection of two broad words cost 26 ms a query at
 * a million items). Three steps, each reading as little as it can:
 *
 * 1. Membership: one bit set per word, the OR of its terms (a long list keeps
 *    its own bit set, a short one sets a bit per posting). A document matches
 *    when its bit is set in every word's set.
 * 2. Count: the sets (and the filter's) are ANDed 32 documents at a time
 *    and counted until the count cap is reached (word-sets.ts).
 * 3. Rank (MaxScore over the best word): names the query is or begins are
 *    seeded first with their bonus (every other match earns none); then the
 *    words' rarest terms (a rare form such as "result" beside "results") are
 *    read whole, up to rareFormsRead postings (MemoryIndexOptions), so no bound counts them
 *    again; then the word whose best remaining contribution is highest is
 *    read term by term, each long list by weight, and each new match is
 *    scored exactly (its terms looked up in every word). Reading stops once
 *    a posting's weight plus every other word's best possible contribution
 *    cannot reach the page.
 *
 * The scores are the ones the term-at-a-time reference gives (query-matcher's
 * run(): the same words in the same order, each word's best term), which the
 * tests compare page by page.
 */
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import type { DocFilter } from './doc-filter';
import type { Scratch } from './scratch';
import type { Matches, TermGroup } from './types';
import { EXACT_NAME_BONUS } from '../../domain/ranking';
import { RankedPage } from './ranked-page';
import { bestOf, countMatches, wordSets, type WordTerm } from './word-sets';

/**
 * The page candidates and capped count of a query of several words (groups
 * sorted cheapest first, as the reference sums them), or undefined where the
 * term-at-a-time intersection is the better plan.
 */
export function runManyWords(store: DocumentStore, scratch: Scratch, query: SearchQuery, filter: DocFilter, groups: readonly TermGroup[], key: string): Matches | undefined {
  const termCount = groups.reduce((n, g) => n + g.ids.length, 0);
  const { wordSetsFrom, maxLookupTerms, rareFormsRead, impactOrderFrom } = store.options;
  if (groups.length < 2 || groups[0]!.cost < wordSetsFrom || termCount > maxLookupTerms) return undefined;
  const sets = wordSets(store, scratch, groups);
  const { terms, matches } = sets;
  const total = countMatches(sets, filter, store.options.countCap);

  const { marks, scores } = scratch;
  const mark = scratch.begin(1);
  // the exact text score: the words' float32 scores summed in double, rounded once (as the reference, and Lucene)
  const textScore = (doc: number): number => {
    let score = 0;
    for (const groupTerms of terms) score += bestOf(groupTerms, doc);
    return Math.fround(score);
  };
  const window = query.page * query.limit;
  const page = new RankedPage(window, scores, store);
  const seed = (doc: number, bonus: number): void => {
    if (marks[doc] === mark || !store.isLive(doc) || !matches(doc) || !filter.passes(doc)) return;
    marks[doc] = mark;
    scores[doc] = Math.fround(textScore(doc) + bonus);
    page.offer(doc);
  };
  for (const doc of store.exactlyNamed(key)) seed(doc, EXACT_NAME_BONUS);
  // A name the key begins starts with the key's first word: that word's leader list holds them all.
  const first = store.dictionary.idOf(key.slice(0, key.indexOf(' ')));
  const leaders = first === undefined ? undefined : store.postings[first];
  for (let i = 0; leaders && i < leaders.leaderCount; i++) {
    const doc = leaders.leaders[i]!;
    if (marks[doc] !== mark && matches(doc) && (store.exactKeys[doc] as string).startsWith(key)) seed(doc, store.leadBonus[doc]!);
  }

  const consider = (doc: number): void => {
    if (marks[doc] === mark) return;
    marks[doc] = mark;
    if (!store.isLive(doc) || !matches(doc) || !filter.passes(doc)) return;
    scores[doc] = textScore(doc);
    page.offer(doc);
  };
  // Rare forms first: a word's rare form ("result" beside "results", "caches" beside "cache") has the
  // highest idf, and its bound held every other word's bound up, so the read of the best word never
  // stopped. Each such short list is read whole; a match not met by then holds none of them, and each
  // word's bound is its longer terms' only.
  const unread = terms.map((groupTerms) => [...groupTerms]);
  const boundOf = (t: WordTerm) => t.factor * t.list.maxWeight;
  let budget = rareFormsRead;
  for (const t of terms.flat().sort((a, b) => boundOf(b) - boundOf(a))) {
    if (t.list.length > budget) continue;
    budget -= t.list.length;
    for (let i = t.list.length - 1; i >= 0; i--) consider(t.list.docs[i]!);
    for (const left of unread) if (left.includes(t)) left.splice(left.indexOf(t), 1);
  }
  // A word read whole: every match holds one of its terms, and has been considered.
  if (unread.some((left) => left.length === 0)) return { docs: page.sorted(), total, scores, partial: [...groups] };

  // Every other match earns no name bonus: its score is at most one word's contribution plus the others' best.
  const bounds = unread.map((left) => Math.max(0, ...left.map(boundOf)));
  const driver = bounds.indexOf(Math.max(...bounds));
  const rest = bounds.reduce((sum, b, g) => (g === driver ? sum : sum + b), 0) * (1 + 1e-6);
  const driving = [...unread[driver]!].sort((a, b) => boundOf(b) - boundOf(a));
  for (const { list, factor } of driving) {
    if ((factor * list.maxWeight + rest) * (1 + 1e-6) < page.threshold()) break;
    const { docs, weights, length } = list;
    if (length < impactOrderFrom) {
      for (let i = length - 1; i >= 0; i--) consider(docs[i]!);
      continue;
    }
    const { order, ordered } = list.impactOrder(() => store.newestRanks());
    for (let i = length - 1; i >= ordered; i--) consider(docs[i]!); // added since the order was built
    for (let j = 0; j < ordered; j++) {
      const i = order[j]!;
      // equal weights come newest first: once one cannot enter, neither can any after it
      if (page.cannotEnter(Math.fround((factor * weights[i]! + rest) * (1 + 1e-6)), docs[i]!)) break;
      consider(docs[i]!);
    }
  }
  return { docs: page.sorted(), total, scores, partial: [...groups] };
}
