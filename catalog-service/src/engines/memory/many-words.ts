/**
 * Several query words ranked by relevance, without reading every posting of
 * every word: intersecting two broad words whole reads most of the catalog.
 * Three steps, each reading as little as it can:
 *
 * 1. Membership: one bit set per word, the OR of its terms (a long list keeps
 *    its own bit set, a short one sets a bit per posting). A document matches
 *    when its bit is set in every word's set.
 * 2. Count: the sets (and the filter's) are ANDed 32 documents at a time
 *    and counted until the count cap is reached (word-sets.ts).
 * 3. Rank (MaxScore over the best word): names the query is or begins are
 *    seeded first with their bonus (every other match earns none); then the
 *    words' rarest terms (a rare form such as "result" beside "results") are
 *    read whole, up to MemoryIndexOptions.rareFormsRead postings, so no
 *    bound counts them again; then the word whose best remaining
 *    contribution is highest is read term by term, each long list by weight,
 *    and each new match is scored exactly (its terms looked up in every
 *    word). Reading stops once a posting's weight plus every other word's
 *    best possible contribution cannot reach the page.
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
import { bestOf, countMatches, wordSets, type WordSets, type WordTerm } from './word-sets';

/**
 * The page and capped count of a query of several words (groups sorted
 * cheapest first, as the reference sums them), or undefined where the
 * term-at-a-time intersection is the better plan.
 */
export function runManyWords(
  store: DocumentStore,
  scratch: Scratch,
  query: SearchQuery,
  filter: DocFilter,
  groups: readonly TermGroup[],
  key: string,
): Matches | undefined {
  const termCount = groups.reduce((n, g) => n + g.ids.length, 0);
  const { wordSetsFrom, maxLookupTerms, rareFormsRead, countCap } = store.options;
  if (groups.length < 2 || groups[0]!.cost < wordSetsFrom || termCount > maxLookupTerms) return undefined;
  const sets = wordSets(store, scratch, groups);
  const total = countMatches(sets, filter, countCap);
  const reading = new WordsReading(store, scratch, filter, sets, query.page * query.limit);
  seedNames(store, reading, key);
  const unread = readRareForms(reading, sets.terms, rareFormsRead);
  // A word read whole: every match holds one of its terms, and has been considered.
  if (!unread.some((left) => left.length === 0)) readBestWord(store, reading, unread);
  return { docs: reading.page.sorted(), total, scores: scratch.scores, partial: [...groups] };
}

/** The matches of several words, each scored exactly when first met (its terms looked up in every word), and the page they rank into. */
class WordsReading {
  readonly page: RankedPage;
  private readonly mark: number;

  constructor(
    private readonly store: DocumentStore,
    private readonly scratch: Scratch,
    private readonly filter: DocFilter,
    private readonly sets: WordSets,
    window: number,
  ) {
    this.mark = scratch.begin(1);
    this.page = new RankedPage(window, scratch.scores, store);
  }

  has(doc: number): boolean {
    return this.scratch.marks[doc] === this.mark;
  }

  /** Whether `doc` holds every word (its bit in every word's set), filters aside. */
  holdsEveryWord(doc: number): boolean {
    return this.sets.matches(doc);
  }

  /** Offers a match whose name earns `bonus` (it is the query, or the query begins it). */
  seed(doc: number, bonus: number): void {
    if (this.has(doc) || !this.store.isLive(doc) || !this.sets.matches(doc) || !this.filter.passes(doc)) return;
    this.scratch.marks[doc] = this.mark;
    this.scratch.scores[doc] = Math.fround(this.textScore(doc) + bonus);
    this.page.offer(doc);
  }

  /** Offers `doc`, met in a posting list, if it is a match not met before (every seeded name was). */
  consider(doc: number): void {
    if (this.has(doc)) return;
    this.scratch.marks[doc] = this.mark;
    if (!this.store.isLive(doc) || !this.sets.matches(doc) || !this.filter.passes(doc)) return;
    this.scratch.scores[doc] = this.textScore(doc);
    this.page.offer(doc);
  }

  /** The exact text score: the words' float32 scores summed in double, rounded once (as the reference, and Lucene). */
  private textScore(doc: number): number {
    let score = 0;
    for (const groupTerms of this.sets.terms) score += bestOf(groupTerms, doc);
    return Math.fround(score);
  }
}

/** Names the query is (exact) or begins, with their bonus: every other match earns none. */
function seedNames(store: DocumentStore, reading: WordsReading, key: string): void {
  for (const doc of store.exactlyNamed(key)) reading.seed(doc, EXACT_NAME_BONUS);
  // A name the key begins starts with the key's first word: that word's leader list holds them all.
  const first = store.dictionary.idOf(key.slice(0, key.indexOf(' ')));
  const leaders = first === undefined ? undefined : store.postings[first];
  for (let i = 0; leaders && i < leaders.leaderCount; i++) {
    const doc = leaders.leaders[i]!;
    if (!reading.has(doc) && reading.holdsEveryWord(doc) && store.nameKeys.exactKeyStartsWith(doc, key))
      reading.seed(doc, store.leadBonus[doc]!);
  }
}

/** A term's best possible contribution. */
const boundOf = (t: WordTerm): number => t.factor * t.list.maxWeight;

/**
 * Reads the words' rarest terms whole, highest bound first, up to `budget`
 * postings in all, and returns each word's terms left unread. A rare form
 * ("result" beside "results") has the highest idf: its bound would otherwise
 * hold up every other word's, so reading by bound would never stop. Once
 * read, a match not met holds none of them, and each word's bound is its
 * longer terms' only.
 */
function readRareForms(reading: WordsReading, terms: readonly WordTerm[][], budget: number): WordTerm[][] {
  const unread = terms.map((groupTerms) => [...groupTerms]);
  let left = budget;
  for (const t of terms.flat().sort((a, b) => boundOf(b) - boundOf(a))) {
    if (t.list.length > left) continue;
    left -= t.list.length;
    for (let i = t.list.length - 1; i >= 0; i--) reading.consider(t.list.docs[i]!);
    for (const word of unread) if (word.includes(t)) word.splice(word.indexOf(t), 1);
  }
  return unread;
}

/**
 * MaxScore over the word whose best remaining contribution is highest: its
 * terms, best bound first, each long list by weight. A match's score is at
 * most that word's contribution plus every other word's best, so a term, or
 * the rest of a list, stops the reading once that cannot reach the page.
 */
function readBestWord(store: DocumentStore, reading: WordsReading, unread: readonly WordTerm[][]): void {
  const bounds = unread.map((word) => Math.max(0, ...word.map(boundOf)));
  const driver = bounds.indexOf(Math.max(...bounds));
  const rest = bounds.reduce((sum, b, g) => (g === driver ? sum : sum + b), 0) * (1 + 1e-6);
  const { page } = reading;
  for (const { list, factor } of [...unread[driver]!].sort((a, b) => boundOf(b) - boundOf(a))) {
    if ((factor * list.maxWeight + rest) * (1 + 1e-6) < page.threshold()) return;
    const { docs, weights, length } = list;
    if (length < store.options.impactOrderFrom) {
      for (let i = length - 1; i >= 0; i--) reading.consider(docs[i]!);
      continue;
    }
    const { order, ordered } = list.impactOrder(() => store.newestRanks());
    for (let i = length - 1; i >= ordered; i--) reading.consider(docs[i]!); // added since the order was built
    for (let j = 0; j < ordered; j++) {
      const i = order[j]!;
      // equal weights come newest first: once one cannot enter, neither can any after it
      if (page.cannotEnter(Math.fround((factor * weights[i]! + rest) * (1 + 1e-6)), docs[i]!)) break;
      reading.consider(docs[i]!);
    }
  }
}
