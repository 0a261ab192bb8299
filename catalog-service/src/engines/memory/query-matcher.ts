/**
 * Finds and scores the documents matching a text query. Every query word must
 * match (AND); each word stands for a group of dictionary terms: the word
 * itself (weight 1), its other forms with the same stem (0.9), for the last
 * word the terms it begins (0.5–0.85, shorter completions first) and, when
 * the exact query finds fewer than a handful, the terms one edit away (0.5)
 * and, for words of 8+ letters, two edits away (0.4).
 * A document scores, per group, its best term's idf × saturated weight, plus
 * a bonus when the query is its whole name or slug.
 *
 * Cost is proportional to postings read, not to the catalog: the group with
 * the fewest postings drives, and each further group is either intersected
 * term-at-a-time (when its postings are few next to the candidates) or checked
 * on each candidate's own term list. Ranked by relevance, one word
 * (one-word.ts) and several broad words (many-words.ts) stop early
 * (MaxScore): once the count is known to reach the cap, a term or the rest
 * of a list that cannot beat the page's worst kept score is not read.
 */
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import { DocFilter } from './doc-filter';
import { isExactName, leadingWordScore, nameBonusOf, usesLeadingWord } from './name-rules';
import { scratchFor, type Scratch } from './scratch';
import type { Matches, TermGroup } from './types';
import type { FacetCounter } from './facets';
import { runManyWords } from './many-words';
import { runOneWord } from './one-word';
import {
  completionWeight,
  EXACT_FORM_WEIGHT,
  STEM_WEIGHT,
  termFactor,
  TWO_TYPOS_WEIGHT,
  TYPO_WEIGHT,
} from '../../domain/ranking';
import { queryTerms, tokenize, type QueryTerm } from '../../domain/text-analysis';
import { tallyMatches, wordSets } from './word-sets';

export type { Matches } from './types';

/** `exhaustive` reads every term (no early stop): the reference the early stop is tested against. */
export function matchQuery(store: DocumentStore, query: SearchQuery, typoBelow: number, exhaustive = false): Matches {
  const terms = queryTerms(query.q ?? '');
  const filter = new DocFilter(store, query);
  if (terms.length === 0 || filter.impossible) return { docs: [], total: 0, scores: new Float32Array(0) };
  const scratch = scratchFor(store);
  const exact = run(store, scratch, query, filter, terms, false, exhaustive);
  if (exact.total >= typoBelow) return exact;
  const fuzzy = run(store, scratch, query, filter, terms, true, exhaustive);
  if (fuzzy.total > exact.total) return fuzzy;
  // Both runs share the scratch scores: the exact answer is computed again (rare, and small).
  return run(store, scratch, query, filter, terms, false, exhaustive);
}

/**
 * Counts the facets of every document of a match the early stop left
 * partial, unscored: the words' bit sets ANDed with the filter's, visited in
 * ordinal order (the codes read in sequence), at a fraction of ranking every
 * match.
 */
export function countEveryMatch(
  store: DocumentStore,
  query: SearchQuery,
  groups: readonly TermGroup[],
  counter: FacetCounter,
): void {
  tallyMatches(
    wordSets(store, scratchFor(store), groups),
    new DocFilter(store, query),
    store.pairCodes,
    counter.counts,
  );
}

/** One run of the query, exact or with typos: the early stop that fits it, else the term-at-a-time intersection. */
function run(
  store: DocumentStore,
  scratch: Scratch,
  query: SearchQuery,
  filter: DocFilter,
  terms: QueryTerm[],
  typos: boolean,
  exhaustive: boolean,
): Matches {
  const groups = terms.map((t) => groupOf(store, t, typos));
  if (groups.some((g) => g.ids.length === 0)) return { docs: [], total: 0, scores: scratch.scores };
  const key = tokenize(query.q ?? '').join(' ');
  if (groups.length === 1 && query.sort === 'relevance' && !exhaustive)
    return runOneWord(store, scratch, query, filter, groups[0]!, key, typos);
  groups.sort((a, b) => a.cost - b.cost);
  if (query.sort === 'relevance' && !typos && !exhaustive) {
    const many = runManyWords(store, scratch, query, filter, groups, key);
    if (many) return many;
  }
  const docs = withNameBonuses(store, scratch.scores, filter, groups, intersect(store, scratch, groups), key, typos);
  return { docs, total: Math.min(docs.length, store.options.countCap), scores: scratch.scores };
}

/**
 * The documents holding every group, each scored its groups' best terms,
 * summed. The cheapest group drives: every live document it holds is a
 * candidate; each further group is read (its postings few next to the
 * candidates) or looked up in each candidate.
 */
function intersect(store: DocumentStore, scratch: Scratch, groups: readonly TermGroup[]): number[] {
  const base = scratch.begin(groups.length);
  const { marks } = scratch;
  const live = store.live;
  let candidates: number[] = [];
  accumulate(store, scratch, groups[0]!, live, -1, base, candidates);
  for (let g = 1; g < groups.length && candidates.length > 0; g++) {
    const group = groups[g]!;
    const before = base + g - 1;
    const after = base + g;
    // Reading the group's postings costs their number; looking each candidate up costs a binary search per term.
    const lookups = candidates.length * group.ids.length * Math.log2(2 + group.cost / group.ids.length);
    if (group.cost <= lookups) accumulate(store, scratch, group, live, before, after, undefined);
    else checkEachCandidate(store, scratch, group, live, candidates, before, after);
    candidates = candidates.filter((doc) => marks[doc] === after);
  }
  return candidates;
}

/**
 * The candidates passing the filter, their scores given what their names
 * earn (name-rules.ts); a one-word query follows the leading-word rule, as
 * its early stop applies it.
 */
function withNameBonuses(
  store: DocumentStore,
  scores: Float32Array,
  filter: DocFilter,
  groups: readonly TermGroup[],
  candidates: readonly number[],
  key: string,
  typos: boolean,
): number[] {
  const leading = groups.length === 1 && usesLeadingWord(key, typos);
  const factors = leading
    ? new Map(
        groups[0]!.ids.map((id, t) => [
          id,
          termFactor(groups[0]!.weights[t]!, store.postings[id]?.live ?? 0, store.live),
        ]),
      )
    : undefined;
  const bonus = nameBonusOf(store, key, typos);
  const docs: number[] = [];
  for (const doc of candidates) {
    if (!filter.passes(doc)) continue;
    const lead = store.leadTerms[doc]!;
    if (factors && !isExactName(store, doc, key) && store.nameKeys.exactKeyStartsWith(doc, key) && factors.has(lead)) {
      scores[doc] = leadingWordScore(store, store.postings[lead]!.weightOf(doc), factors.get(lead)!, doc);
    } else {
      scores[doc]! += bonus(doc);
    }
    docs.push(doc);
  }
  return docs;
}

/**
 * Term-at-a-time over the group's postings: a document marked `before` (it
 * matched every earlier group) gains the group's contribution (weight × idf ×
 * saturated tf) and moves to `after`; a later term of the same group raises it
 * to that term's contribution when higher (a group scores its best term).
 * The driving group takes every document not yet at `after` (older marks
 * belong to earlier queries) and collects it into `collect`, last ordinal
 * first: mostly newest first, the order ties rank in (see match-collector.ts).
 */
function accumulate(
  store: DocumentStore,
  scratch: Scratch,
  group: TermGroup,
  live: number,
  before: number,
  after: number,
  collect: number[] | undefined,
): void {
  const { marks, scores, best, base, sums } = scratch;
  for (let t = 0; t < group.ids.length; t++) {
    const list = store.postings[group.ids[t]!];
    if (!list) continue;
    const factor = termFactor(group.weights[t]!, list.live, live);
    const { docs, weights, length } = list;
    for (let i = length - 1; i >= 0; i--) {
      const doc = docs[i]!;
      const mark = marks[doc];
      const first = collect ? mark !== after : mark === before;
      if (!first && mark !== after) continue;
      if (!store.isLive(doc)) continue;
      const v = factor * weights[i]!;
      if (first) {
        marks[doc] = after;
        base[doc] = collect ? 0 : sums[doc]!;
        best[doc] = v;
        sums[doc] = base[doc]! + best[doc]!;
        scores[doc] = sums[doc]!;
        collect?.push(doc);
      } else if (v > best[doc]!) {
        best[doc] = v;
        sums[doc] = base[doc]! + best[doc]!;
        scores[doc] = sums[doc]!;
      }
    }
  }
}

function checkEachCandidate(
  store: DocumentStore,
  scratch: Scratch,
  group: TermGroup,
  live: number,
  candidates: number[],
  before: number,
  after: number,
): void {
  const { marks, scores, sums } = scratch;
  const lists = group.ids.map((id, t) => ({
    list: store.postings[id],
    factor: termFactor(group.weights[t]!, store.postings[id]?.live ?? 0, live),
  }));
  for (const doc of candidates) {
    if (marks[doc] !== before) continue;
    let top = 0;
    for (const { list, factor } of lists) {
      const at = list ? list.indexOf(doc) : -1;
      if (at >= 0) top = Math.max(top, factor * list!.weights[at]!);
    }
    if (top > 0) {
      marks[doc] = after;
      sums[doc]! += Math.fround(top);
      scores[doc] = sums[doc]!;
    }
  }
}

/** The dictionary terms a query word stands for, with their form weights (exact run, or with its typo spellings). */
export function groupOf(store: DocumentStore, term: QueryTerm, typos: boolean): TermGroup {
  const { dictionary, postings } = store;
  const weights = new Map<number, number>();
  const offer = (id: number | undefined, w: number) => {
    if (id !== undefined && (postings[id]?.live ?? 0) > 0 && w > (weights.get(id) ?? 0)) weights.set(id, w);
  };
  offer(dictionary.idOf(term.text), EXACT_FORM_WEIGHT);
  for (const id of dictionary.sameStem(term.text)) offer(id, STEM_WEIGHT);
  if (term.prefix && term.text.length >= 2) {
    for (const id of dictionary.withPrefix(term.text)) {
      // "kube" → "kubernetes": the closer the completion to what was typed, the higher.
      offer(id, completionWeight(term.text, dictionary.terms[id] as string));
    }
  }
  if (typos) {
    for (const id of dictionary.oneEditFrom(term.text)) offer(id, TYPO_WEIGHT);
    for (const id of dictionary.twoEditsFrom(term.text)) offer(id, TWO_TYPOS_WEIGHT);
  }
  const ids = [...weights.keys()];
  return {
    ids,
    weights: ids.map((id) => weights.get(id) as number),
    cost: ids.reduce((n, id) => n + (postings[id]?.length ?? 0), 0),
  };
}
