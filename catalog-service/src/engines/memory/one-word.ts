/**
 * One query word ranked by relevance (MaxScore over the word's terms). A
 * document scores its best term, so a term whose best possible contribution
 * is below the page's worst kept score can neither add a document to the page
 * nor move one on it; once the count is capped, such terms are skipped.
 */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import { IMPACT_ORDER_FROM } from './postings';
import { TopK } from './top-k';
import { idf, leadingWordScore, mayBeMisspeltName, nameBonusOf, usesLeadingWord, type DocFilter, type Matches, type Scratch, type TermGroup } from './match-support';
import { EXACT_NAME_BONUS, MAX_NAME_BEGINS_BONUS, TYPO_NAME_BONUS } from './name-bonus';

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
  const { marks, scores, best } = scratch;
  const mark = scratch.begin(1);
  const live = store.live;
  const window = query.page * query.limit;
  // Names the query begins start with one of the group's terms (every completion is in it).
  // Outside typo runs they follow the leading-word rule (nameBonusOf in match-support.ts): they are
  // seeded below from the terms' leader lists with their final scores, and the bounds stay as
  // they were. In a typo run (or with stop words before the word) the largest bonus any
  // document could get joins every bound instead, and a posting whose own bonus cannot lift it
  // to the page is passed over.
  const leading = usesLeadingWord(key, typos);
  const leads = leading ? 0 : scratch.beginLeads(store.dictionary.size);
  const { leadStamps } = scratch;
  // several words in the key (stop words before the one that counts): a name they begin may start with any term
  const severalWords = key.includes(' ');
  const floor = typos ? TYPO_NAME_BONUS : 0;
  let cap = 0;
  if (!leading) {
    if (key.length >= 2) {
      for (const id of group.ids) {
        if (!(store.dictionary.terms[id] as string).startsWith(key)) continue;
        leadStamps[id] = leads;
        cap = Math.max(cap, store.postings[id]?.maxLeadBonus ?? 0);
      }
      if (severalWords) cap = MAX_NAME_BEGINS_BONUS;
    }
    cap = Math.max(cap, floor);
  }
  // An upper bound of bonus(doc) for a document not seeded (without the leading-word rule). The
  // typo bonus is possible only for a one-word name or slug of about the key's length: checking
  // that much lets a typo run pass over the rest of a broad word's postings unscored.
  const mayBeMisspelt = typos ? mayBeMisspeltName(store, key) : undefined;
  const bonusOf = (doc: number): number => {
    if (severalWords) return cap;
    const typo = mayBeMisspelt?.(doc) ? TYPO_NAME_BONUS : 0;
    return leadStamps[store.leadTerms[doc]!] === leads ? Math.max(typo, store.leadBonus[doc]!) : typo;
  };
  const terms = group.ids.map((id, t) => {
    const list = store.postings[id];
    const factor = group.weights[t]! * idf(list?.live ?? 0, live);
    return { id, factor, bound: (factor * (list?.maxWeight ?? 0) + cap) * (1 + 1e-6) };
  });
  terms.sort((a, b) => b.bound - a.bound);
  // with the leading-word rule every name the query begins or names is seeded: no bonus in take
  const bonus = leading ? undefined : nameBonusOf(store, key, typos);
  const cappedUnread = filter.none && terms.some((t) => (store.postings[t.id]?.live ?? 0) >= MAX_RESULT_WINDOW);
  // Lists are read from their end: later ordinals are mostly newer states, so `docs` holds equal
  // scores mostly newest first, the order ranking breaks ties in, and the top-k passes over it
  // refuse most of a broad word's ties at the heap's root instead of each replacing it.
  const docs: number[] = [];
  const countKnown = (): boolean => cappedUnread || docs.length >= MAX_RESULT_WINDOW;

  const take = (doc: number, v: number): void => {
    if (marks[doc] === mark) {
      if (v > best[doc]!) {
        scores[doc]! += v - best[doc]!;
        best[doc] = v;
      }
      return;
    }
    if (!store.isLive(doc) || !filter.passes(doc)) return;
    marks[doc] = mark;
    best[doc] = v;
    scores[doc] = bonus ? v + bonus(doc) : v;
    docs.push(doc);
  };
  // The page's worst kept document and its score: scores only grow, so an old reading stays a safe bar.
  let worst = -1;
  let threshold = Number.NEGATIVE_INFINITY;
  let thresholdAt = 0;
  const raiseThreshold = (): void => {
    if (docs.length < window || docs.length < thresholdAt * 1.25) return;
    worst = worstKept(store, docs, scores, window, threshold) ?? -1;
    threshold = worst < 0 ? Number.NEGATIVE_INFINITY : scores[worst]!;
    thresholdAt = docs.length;
  };

  // A document scoring at most `score` cannot enter the page: below its worst kept score, or level with it and older.
  const belowPage = (score: number, doc: number): boolean =>
    score < threshold || (score === threshold && worst >= 0 && store.compareNewest(doc, worst) > 0);

  // Seeded, so skipping a term can never lose the item the query names (its term weight joins when read).
  for (const doc of store.exactlyNamed(key)) {
    if (!filter.passes(doc)) continue;
    marks[doc] = mark;
    best[doc] = 0;
    scores[doc] = EXACT_NAME_BONUS;
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
  for (const term of terms) {
    if (countKnown()) {
      raiseThreshold();
      if (term.bound < threshold) break; // every later term's bound is lower still
    }
    const list = store.postings[term.id];
    if (!list) continue;
    const { docs: postings, weights, length } = list;
    if (!countKnown() || length < IMPACT_ORDER_FROM) {
      for (let i = length - 1; i >= 0; i--) take(postings[i]!, term.factor * weights[i]!);
      continue;
    }
    const { order, ordered } = list.impactOrder(store.compareNewest);
    for (let i = length - 1; i >= ordered; i--) take(postings[i]!, term.factor * weights[i]!); // added since the order was built
    for (let j = 0; j < ordered; j++) {
      const i = order[j]!;
      const doc = postings[i]!;
      const v = Math.fround(term.factor * weights[i]!); // as the score array will hold it
      if ((j & 511) === 0) raiseThreshold();
      // The rest of this list weighs less, or as much and ranks after (equal weights come newest first):
      // nothing further here can enter the page. Ties matter: a broad word's items often weigh alike.
      // A name bonus lifts the bar: the list is left only below it, and a posting is passed over when
      // its own document's bonus cannot lift it to the page either.
      if (cap === 0) {
        if (belowPage(v, doc)) break;
      } else {
        if (Math.fround(v + cap) < threshold) break;
        if (marks[doc] !== mark && belowPage(Math.fround(v + bonusOf(doc)), doc)) continue;
      }
      take(doc, v);
    }
  }
  // every term read whole until the count was known: then `docs` holds every match
  return { docs, total: countKnown() ? MAX_RESULT_WINDOW : docs.length, scores, floor: threshold, ...(countKnown() ? { partial: [group] } : {}) };
}

/**
 * The worst document a page of `k` would keep now (ranked by score, then
 * newest), once there are k. A document below `floor` (an earlier bar: k
 * documents reached it then, and scores only grow) is not compared at all.
 */
function worstKept(store: DocumentStore, docs: readonly number[], scores: Float32Array, k: number, floor: number): number | undefined {
  if (docs.length < k) return undefined;
  const top = new TopK(k, (a, b) => scores[a]! > scores[b]! || (scores[a] === scores[b] && store.compareNewest(a, b) < 0));
  for (const doc of docs) if (scores[doc]! >= floor) top.offer(doc);
  return top.worst();
}
