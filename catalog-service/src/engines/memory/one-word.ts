/**
 * One query word ranked by relevance (MaxScore over the word's terms). A
 * document scores its best term, so a term whose best possible contribution
 * is below the page's worst kept score can neither add a document to the page
 * nor move one on it; once the count is capped, such terms are skipped.
 */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import { lengthBits } from './bits';
import { IMPACT_ORDER_FROM } from './postings';
import { RankedPage } from './ranked-page';
import type { DocFilter } from './doc-filter';
import { leadingWordScore, mayBeMisspeltName, nameBonusOf, usesLeadingWord } from './name-rules';
import type { Scratch } from './scratch';
import type { Matches, TermGroup } from './types';
import { EXACT_NAME_BONUS, MAX_NAME_BEGINS_BONUS, TYPO_NAME_BONUS, termFactor } from '../../domain/ranking';
import { typoBudget } from '../../domain/spelling';
import { bestOf, countMatches, forEachMatch, LOOKUP_STEPS, WORD_SETS_FROM, wordSets } from './word-sets';

/**
 * The best `page × limit` documents of one query word and the capped count,
 * reading as little as possible. Exact names come first from the name index;
 * terms are read best possible contribution first, whole, until the count is
 * known to be capped (10,000 matches read, or, without filters, one term
 * alone holding 10,000 live documents). From then on reading stops as soon
 * as nothing left can reach the page: a term is skipped when its bound is
 * below the page's worst kept score, and a long list is read by weight and
 * left at its first posting below it.
 */
export function runOneWord(store: DocumentStore, scratch: Scratch, query: SearchQuery, filter: DocFilter, group: TermGroup, key: string, typos: boolean): Matches {
  const { marks, scores, best, base } = scratch;
  const mark = scratch.begin(1);
  const live = store.live;
  const window = query.page * query.limit;
  // Names the query begins start with one of the group's terms (every completion is in it).
  // Outside typo runs they follow the leading-word rule (name-rules.ts): they are
  // seeded below from the terms' leader lists with their final scores, and the bounds stay as
  // they were. With stop words before the word ("for you") the names the key begins all start
  // with its first word: they are seeded from that word's leader list. In a typo run the largest
  // bonus a document of a list could get joins that list's bound instead, and a posting whose own
  // bonus cannot lift it to the page is passed over.
  const leading = usesLeadingWord(key, typos);
  // several words in the key (stop words before the one that counts): a name they begin may start with any term
  const severalWords = key.includes(' ');
  const begun = severalWords && !typos ? namesBegunBy(store, group, key, filter, live) : undefined;
  const seeded = leading || begun !== undefined;
  const leads = seeded ? 0 : scratch.beginLeads(store.dictionary.size);
  const { leadStamps } = scratch;
  let cap = 0;
  if (!seeded && key.length >= 2) {
    for (const id of group.ids) {
      if (!(store.dictionary.terms[id] as string).startsWith(key)) continue;
      leadStamps[id] = leads;
      cap = Math.max(cap, store.postings[id]?.maxLeadBonus ?? 0);
    }
    if (severalWords) cap = MAX_NAME_BEGINS_BONUS;
  }
  // The misspelt-name bonus is possible only for a one-word name or slug of about the key's length:
  // a list holding none such (its length bits) does without it in its bound, and a posting of a list
  // that may is checked by two byte reads before any name is spelt out.
  const budget = typos ? typoBudget(key) : 0;
  const misspeltLengths = typos && !severalWords ? lengthBits(key.length - budget, key.length + budget) : 0;
  const mayBeMisspelt = typos ? mayBeMisspeltName(store, key) : undefined;
  // An upper bound of bonus(doc) for a document not seeded.
  const bonusOf = (doc: number): number => {
    if (severalWords) return Math.max(cap, typos ? TYPO_NAME_BONUS : 0);
    const typo = mayBeMisspelt?.(doc) ? TYPO_NAME_BONUS : 0;
    return leadStamps[store.leadTerms[doc]!] === leads ? Math.max(typo, store.leadBonus[doc]!) : typo;
  };
  const terms = group.ids.map((id, t) => {
    const list = store.postings[id];
    const factor = termFactor(group.weights[t]!, list?.live ?? 0, live);
    const typoCap = typos && (severalWords || ((list?.oneWordNames ?? 0) & misspeltLengths) !== 0) ? TYPO_NAME_BONUS : 0;
    const termCap = Math.max(cap, typoCap);
    return { id, factor, cap: termCap, bound: (factor * (list?.maxWeight ?? 0) + termCap) * (1 + 1e-6) };
  });
  terms.sort((a, b) => b.bound - a.bound);
  // seeded, every name the query begins or names is in `docs` already: no bonus in take
  const bonus = seeded ? undefined : nameBonusOf(store, key, typos);
  // Under a filter the count seldom reaches the cap, and reading every posting of a broad word to
  // find the few that pass was most of a filtered query: the word's bit set ANDed with the
  // filter's counts the matches 32 at a step (word-sets.ts). Past the cap the early stop applies
  // from the first term; below it, when looking each match up costs less than reading the word,
  // each match is looked up.
  const sets = !filter.none && group.cost >= WORD_SETS_FROM ? wordSets(store, scratch, [group]) : undefined;
  const counted = sets ? countMatches(sets, filter) : 0;
  const cappedUnread = counted >= MAX_RESULT_WINDOW || (filter.none && terms.some((t) => (store.postings[t.id]?.live ?? 0) >= MAX_RESULT_WINDOW));
  // Lists are read from their end: later ordinals are mostly newer states, so `docs` holds equal
  // scores mostly newest first, the order ranking breaks ties in, and the top-k passes over it
  // refuse most of a broad word's ties at the heap's root instead of each replacing it.
  const docs: number[] = [];
  const countKnown = (): boolean => cappedUnread || docs.length >= MAX_RESULT_WINDOW;

  // The page so far, kept live once the count is known (the early stop needs its bar from then on).
  let page: RankedPage | undefined;
  const livePage = (): RankedPage => {
    if (!page) {
      page = new RankedPage(window, scores, store, scratch.pagePlaces);
      for (const doc of docs) page.offer(doc);
    }
    return page;
  };
  const take = (doc: number, v: number): void => {
    // base[] holds the document's name bonus: a better term gives float32(term + bonus), as the reference adds them
    if (marks[doc] === mark) {
      if (v > best[doc]!) {
        best[doc] = v;
        scores[doc] = v + base[doc]!;
        page?.offer(doc);
      }
      return;
    }
    if (!store.isLive(doc) || !filter.passes(doc)) return;
    marks[doc] = mark;
    best[doc] = v;
    base[doc] = bonus ? bonus(doc) : 0;
    scores[doc] = v + base[doc]!;
    docs.push(doc);
    page?.offer(doc);
  };

  // The items the query names are seeded with their final scores (their best term, looked up, plus
  // the bonus), so skipping a term or leaving a list can never lose one, nor its rank among them.
  for (const doc of store.exactlyNamed(key)) {
    if (!filter.passes(doc)) continue;
    let top = 0;
    for (const term of terms) top = Math.max(top, Math.fround(term.factor * (store.postings[term.id]?.weightOf(doc) ?? 0)));
    marks[doc] = mark;
    best[doc] = Number.POSITIVE_INFINITY;
    scores[doc] = Math.fround(top + EXACT_NAME_BONUS);
    docs.push(doc);
  }
  if (leading) {
    for (const term of terms) {
      const list = store.postings[term.id];
      if (!list || !(store.dictionary.terms[term.id] as string).startsWith(key)) continue;
      for (let i = list.leaderCount - 1; i >= 0; i--) {
        const doc = list.leaders[i]!;
        if (marks[doc] === mark || !store.isLive(doc) || !filter.passes(doc)) continue;
        marks[doc] = mark;
        best[doc] = Number.POSITIVE_INFINITY; // final: another term never raises it
        scores[doc] = leadingWordScore(store, list.leaderWeights[i]!, term.factor, doc);
        docs.push(doc);
      }
    }
  }
  for (const [doc, score] of begun ?? []) {
    if (marks[doc] === mark) continue;
    marks[doc] = mark;
    best[doc] = Number.POSITIVE_INFINITY;
    scores[doc] = score;
    docs.push(doc);
  }
  const wordTerms = sets?.terms[0] ?? [];
  if (sets && !cappedUnread && counted * wordTerms.length * LOOKUP_STEPS < group.cost) {
    forEachMatch(sets, filter, (doc) => take(doc, bestOf(wordTerms, doc)));
    return { docs, total: docs.length, scores };
  }
  for (const term of terms) {
    if (countKnown() && term.bound < livePage().threshold()) break; // every later term's bound is lower still
    const list = store.postings[term.id];
    if (!list) continue;
    const { docs: postings, weights, length } = list;
    if (!countKnown() || length < IMPACT_ORDER_FROM) {
      for (let i = length - 1; i >= 0; i--) take(postings[i]!, term.factor * weights[i]!);
      continue;
    }
    const bar = livePage();
    const { order, ordered } = list.impactOrder(() => store.newestRanks());
    for (let i = length - 1; i >= ordered; i--) take(postings[i]!, term.factor * weights[i]!); // added since the order was built
    for (let j = 0; j < ordered; j++) {
      const i = order[j]!;
      const doc = postings[i]!;
      const v = Math.fround(term.factor * weights[i]!); // as the score array will hold it
      // The rest of this list weighs less, or as much and ranks after (equal weights come newest first):
      // nothing further here can enter the page. Ties matter: a broad word's items often weigh alike.
      // A name bonus lifts the bar: the list is left only below it, and a posting is passed over when
      // its own document's bonus cannot lift it to the page either.
      if (term.cap === 0) {
        if (bar.cannotEnter(v, doc)) break;
      } else {
        if (Math.fround(v + term.cap) < bar.threshold()) break;
        if (marks[doc] !== mark && bar.cannotEnter(Math.fround(v + bonusOf(doc)), doc)) continue;
      }
      take(doc, v);
    }
  }
  // every term read whole until the count was known: then `docs` holds every match
  if (!countKnown()) return { docs, total: docs.length, scores };
  return { docs: page ? page.sorted() : docs, total: MAX_RESULT_WINDOW, scores, partial: [group] };
}

/**
 * The live documents passing `filter` whose name a key of several words
 * ("for you": stop words, then the word) begins, with their final scores
 * (their best term of the group, looked up, plus their name-begins bonus).
 * Such a name starts with the key's first word, so its leader list holds
 * them all. Undefined when checking them would cost more than reading the
 * group's postings.
 */
function namesBegunBy(store: DocumentStore, group: TermGroup, key: string, filter: DocFilter, live: number): Array<[number, number]> | undefined {
  const first = store.dictionary.idOf(key.slice(0, key.indexOf(' ')));
  const leaders = first === undefined ? undefined : store.postings[first];
  if (!leaders) return [];
  if (leaders.leaderCount > group.cost) return undefined;
  const begun: number[] = [];
  for (let i = 0; i < leaders.leaderCount; i++) {
    const doc = leaders.leaders[i]!;
    if (store.isLive(doc) && (store.exactKeys[doc] as string).startsWith(key) && filter.passes(doc)) begun.push(doc);
  }
  if (begun.length * group.ids.length > group.cost) return undefined;
  const factors = group.ids.map((id, t) => termFactor(group.weights[t]!, store.postings[id]?.live ?? 0, live));
  const seeds: Array<[number, number]> = [];
  for (const doc of begun) {
    let top = 0;
    group.ids.forEach((id, t) => {
      const weight = store.postings[id]?.weightOf(doc) ?? 0;
      if (weight > 0) top = Math.max(top, Math.fround(factors[t]! * weight));
    });
    // scored as the reference ranking scores it: the term's contribution as stored, then the bonus
    if (top > 0) seeds.push([doc, Math.fround(top + store.leadBonus[doc]!)]);
  }
  return seeds;
}
