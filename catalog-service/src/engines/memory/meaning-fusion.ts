/**
 * The memory engine's hybrid and semantic searches: the word matches (or
 * none), the nearest items the vector index found, and one scored set of
 * both, as domain/hybrid-ranking.ts defines it and the Elasticsearch query
 * computes it. Filters apply to the neighbours as to the words; totals and
 * facets count the fused set.
 */
import { DEFAULT_MEANING_WEIGHTS, meaningScore, type MeaningWeights } from '../../domain/hybrid-ranking';
import { termFactor } from '../../domain/ranking';
import { queryTerms, tokenize } from '../../domain/text-analysis';
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import { DocFilter } from './doc-filter';
import { nameBonusOf } from './name-rules';
import { groupOf } from './query-matcher';
import { scratchFor } from './scratch';
import type { Matches, TermGroup } from './types';

/** A neighbour of the query's vector: the document's ordinal and its cosine similarity. */
export interface Neighbour {
  doc: number;
  cosine: number;
}

/** The fused set: every document with its score in `scores`, and the neighbours that are not word matches (counted on top). */
export interface FusedMatches extends Matches {
  /** neighbours outside the word matches: counted in `total`, and in facets on top of the word matches */
  added: number[];
}

/**
 * Fuses the word matches (`words`; undefined in semantic mode) with the
 * first `k` neighbours at least `minCosine` similar that pass
 * the query's filters (most similar first). A neighbour that is a word match keeps its words' score and gains
 * its meaning's; when the words stopped early (`partial`), a neighbour they
 * did not reach is a match if it holds every word, scored as the words would.
 */
export function fuseNeighbours(
  store: DocumentStore,
  query: SearchQuery,
  words: Matches | undefined,
  neighbours: readonly Neighbour[],
  weights: MeaningWeights = DEFAULT_MEANING_WEIGHTS,
): FusedMatches {
  const filter = new DocFilter(store, query);
  // looked up (a prefix expansion included) only for a neighbour whose words matter below
  let groups: TermGroup[] | undefined;
  const groupsOf = (): TermGroup[] => (groups ??= queryTerms(query.q ?? '').map((term) => groupOf(store, term, false)));
  // the word run's scratch scores, or (no word matched, semantic mode) the same scratch array
  const scores = words && words.scores.length >= store.capacity ? words.scores : scratchFor(store).scores;
  const matched = new Set(words?.docs ?? []);
  const bonus = words?.partial ? nameBonusOf(store, tokenize(query.q ?? '').join(' ')) : undefined;
  const docs = [...(words?.docs ?? [])];
  if (weights.allWords !== 0) for (const doc of docs) scores[doc] = Math.fround(scores[doc]! + weights.allWords);
  const added: number[] = [];
  let taken = 0;
  for (const { doc, cosine } of neighbours) {
    if (taken >= weights.k || cosine < weights.minCosine) break;
    if (!store.isLive(doc) || filter.impossible || !filter.passes(doc)) continue;
    taken++;
    // the words a neighbour holds matter to its score (someWords), or to whether an early stop missed it
    const { sum, holdsAll } =
      weights.someWords !== 0 || (bonus && !matched.has(doc)) ? wordScores(store, groupsOf(), doc) : NO_WORDS;
    const meaning = meaningScore(cosine, sum, weights);
    if (matched.has(doc)) scores[doc] = Math.fround(scores[doc]! + meaning);
    else if (bonus && holdsAll) {
      // a word match the early stop did not read: scored as the words score it, and already counted
      scores[doc] = Math.fround(weights.allWords + sum + bonus(doc) + meaning);
      docs.push(doc);
    } else {
      scores[doc] = Math.fround(meaning);
      docs.push(doc);
      added.push(doc);
    }
  }
  const total = Math.min((words?.total ?? 0) + added.length, store.options.countCap);
  return { docs, total, scores, added, ...(words?.partial ? { partial: words.partial } : {}) };
}

const NO_WORDS = { sum: 0, holdsAll: false };

/** The words' per-word scores a document holds, summed (each word its best term), and whether it holds them all. */
function wordScores(
  store: DocumentStore,
  groups: readonly TermGroup[],
  doc: number,
): { sum: number; holdsAll: boolean } {
  let sum = 0;
  let held = 0;
  for (const group of groups) {
    let top = 0;
    for (let t = 0; t < group.ids.length; t++) {
      const list = store.postings[group.ids[t]!];
      if (!list) continue;
      const at = list.indexOf(doc);
      if (at >= 0) top = Math.max(top, termFactor(group.weights[t]!, list.live, store.live) * list.weights[at]!);
    }
    if (top > 0) held++;
    sum += Math.fround(top);
  }
  return { sum, holdsAll: groups.length > 0 && held === groups.length };
}
