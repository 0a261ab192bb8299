/**
 * One query word ranked by relevance (MaxScore over the word's terms). A
 * document scores its best term, so a term whose best possible contribution
 * is below the page's worst kept score can neither add a document to the page
 * nor move one on it; once the count is capped, such terms are skipped.
 *
 * Three phases: seed (the names that earn a bonus, with their final scores:
 * one-word-seeds.ts), count or look up under a filter (the word's bit set
 * ANDed with the filter's), and read by bound (terms best bound first, whole
 * until the count is known, then each long list by weight, left at its first
 * posting that cannot enter the page). A MatchCollector holds what was read.
 */
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import type { DocFilter } from './doc-filter';
import { MatchCollector } from './match-collector';
import { nameBonusOf, usesLeadingWord } from './name-rules';
import { nameBonusBounds, NO_NAME_BONUS, type NameBonusBounds } from './one-word-bounds';
import { namesBegunBy, seedBegun, seedExactNames, seedLeaders } from './one-word-seeds';
import type { PostingList } from './postings';
import type { Scratch } from './scratch';
import type { Matches, ReadTerm, TermGroup } from './types';
import { termFactor } from '../../domain/ranking';
import { bestOf, countMatches, forEachMatch, LOOKUP_STEPS, wordSets } from './word-sets';

/**
 * The best `page × limit` documents of one query word and the capped count,
 * reading as little as possible. The count is known to reach the cap
 * (MemoryIndexOptions.countCap, the 10,000-result window) once that many
 * matches are read, or before reading when one term alone holds that many
 * live documents (no filter) or the filtered word set counts that many.
 */
export function runOneWord(
  store: DocumentStore,
  scratch: Scratch,
  query: SearchQuery,
  filter: DocFilter,
  group: TermGroup,
  key: string,
  typos: boolean,
): Matches {
  // Outside typo runs, names the query begins are seeded: from the leader lists of the terms the
  // key begins (the leading-word rule) or, with stop words before the word ("for you"), from the
  // first word's. Otherwise a list's largest name bonus joins its bound (one-word-bounds.ts).
  const leading = usesLeadingWord(key, typos);
  const begun = key.includes(' ') && !typos ? namesBegunBy(store, group, key, filter) : undefined;
  const seeded = leading || begun !== undefined;
  const bounds = seeded ? NO_NAME_BONUS : nameBonusBounds(store, scratch, group, key, typos);
  const terms = readTerms(store, group, bounds);
  const { countCap, wordSetsFrom } = store.options;
  const sets = !filter.none && group.cost >= wordSetsFrom ? wordSets(store, scratch, [group]) : undefined;
  const counted = sets ? countMatches(sets, filter, countCap) : 0;
  const capped =
    counted >= countCap || (filter.none && terms.some((t) => (store.postings[t.id]?.live ?? 0) >= countCap));
  // seeded, every name the query begins or names is taken before reading: no bonus when reading
  const collector = new MatchCollector(
    store,
    scratch,
    filter,
    query.page * query.limit,
    seeded ? undefined : nameBonusOf(store, key, typos),
    capped,
  );

  seedExactNames(store, collector, terms, key, filter);
  if (leading) seedLeaders(store, collector, terms, key, filter);
  if (begun) seedBegun(store, collector, terms, begun);
  // Below the cap, when looking each filtered match up costs less than reading the word, each is looked up.
  const wordTerms = sets?.terms[0] ?? [];
  if (sets && !capped && counted * wordTerms.length * LOOKUP_STEPS < group.cost) {
    forEachMatch(sets, filter, (doc) => collector.take(doc, bestOf(wordTerms, doc)));
  } else {
    readByBound(store, collector, terms, bounds);
  }
  return collector.matches(group);
}

/** The group's terms with their factors, name-bonus caps and bounds, best bound first. */
function readTerms(store: DocumentStore, group: TermGroup, bounds: NameBonusBounds): ReadTerm[] {
  const terms = group.ids.map((id, t): ReadTerm => {
    const list = store.postings[id];
    const factor = termFactor(group.weights[t]!, list?.live ?? 0, store.live);
    const cap = bounds.capOf(list);
    return { id, factor, cap, bound: (factor * (list?.maxWeight ?? 0) + cap) * (1 + 1e-6) };
  });
  return terms.sort((a, b) => b.bound - a.bound);
}

/**
 * Reads the terms best bound first: whole until the count is known; from
 * then on a term whose bound cannot reach the page ends the reading (every
 * later one's is lower still), and a long list is read by weight.
 */
function readByBound(
  store: DocumentStore,
  collector: MatchCollector,
  terms: readonly ReadTerm[],
  bounds: NameBonusBounds,
): void {
  for (const term of terms) {
    if (collector.countKnown() && term.bound < collector.livePage().threshold()) return;
    const list = store.postings[term.id];
    if (!list) continue;
    if (!collector.countKnown() || list.length < store.options.impactOrderFrom)
      readWhole(collector, list, term.factor, 0);
    else readByWeight(store, collector, list, term, bounds);
  }
}

/** Takes the postings `from` the list's end down to its start, last ordinal first. */
function readWhole(collector: MatchCollector, list: PostingList, factor: number, from: number): void {
  const { docs, weights } = list;
  for (let i = list.length - 1; i >= from; i--) collector.take(docs[i]!, factor * weights[i]!);
}

/**
 * Reads a long list by weight, highest first (equal weights newest first),
 * until nothing further in it can enter the page: the rest weighs less, or
 * as much and ranks after. A name bonus lifts that bar: the list is left
 * only when even its largest bonus cannot reach the page, and a posting is
 * passed over when its own document's bonus cannot lift it there either.
 */
function readByWeight(
  store: DocumentStore,
  collector: MatchCollector,
  list: PostingList,
  term: ReadTerm,
  bounds: NameBonusBounds,
): void {
  const page = collector.livePage();
  const { order, ordered } = list.impactOrder(() => store.newestRanks());
  readWhole(collector, list, term.factor, ordered); // added since the order was built
  const { docs, weights } = list;
  for (let j = 0; j < ordered; j++) {
    const i = order[j]!;
    const doc = docs[i]!;
    const v = Math.fround(term.factor * weights[i]!); // as the score array will hold it
    if (term.cap === 0) {
      if (page.cannotEnter(v, doc)) return;
    } else {
      if (Math.fround(v + term.cap) < page.threshold()) return;
      if (!collector.has(doc) && page.cannotEnter(Math.fround(v + bounds.of(doc)), doc)) continue;
    }
    collector.take(doc, v);
  }
}
