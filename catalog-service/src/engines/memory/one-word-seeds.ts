/**
 * The one-word path's first phase: the documents whose name earns a bonus
 * the early stop could otherwise miss, taken before any list is read, with
 * their final scores (their best term, looked up, plus the bonus), so
 * skipping a term or leaving a list can never lose one, nor its rank.
 */
import type { DocumentStore } from './document-store';
import type { DocFilter } from './doc-filter';
import type { MatchCollector } from './match-collector';
import { leadingWordScore } from './name-rules';
import type { ReadTerm, TermGroup } from './types';
import { EXACT_NAME_BONUS } from '../../domain/ranking';

/** The items the query names (their whole name or slug). */
export function seedExactNames(
  store: DocumentStore,
  collector: MatchCollector,
  terms: readonly ReadTerm[],
  key: string,
  filter: DocFilter,
): void {
  for (const doc of store.exactlyNamed(key)) {
    if (filter.passes(doc)) collector.seed(doc, Math.fround(bestContribution(store, terms, doc) + EXACT_NAME_BONUS));
  }
}

/**
 * Under the leading-word rule (name-rules.ts), the names the query begins,
 * from the leader lists of the terms the key begins: each scores its first
 * word's contribution plus its name-begins bonus.
 */
export function seedLeaders(
  store: DocumentStore,
  collector: MatchCollector,
  terms: readonly ReadTerm[],
  key: string,
  filter: DocFilter,
): void {
  for (const term of terms) {
    const list = store.postings[term.id];
    if (!list || !(store.dictionary.terms[term.id] as string).startsWith(key)) continue;
    for (let i = list.leaderCount - 1; i >= 0; i--) {
      const doc = list.leaders[i]!;
      if (collector.has(doc) || !store.isLive(doc) || !filter.passes(doc)) continue;
      collector.seed(doc, leadingWordScore(store, list.leaderWeights[i]!, term.factor, doc));
    }
  }
}

/**
 * The live documents passing `filter` whose name a key of several words
 * ("for you": stop words, then the word) begins. Such a name starts with the
 * key's first word, so its leader list holds them all. Undefined when
 * checking them would cost more than reading the group's postings.
 */
export function namesBegunBy(
  store: DocumentStore,
  group: TermGroup,
  key: string,
  filter: DocFilter,
): number[] | undefined {
  const first = store.dictionary.idOf(key.slice(0, key.indexOf(' ')));
  const leaders = first === undefined ? undefined : store.postings[first];
  if (!leaders) return [];
  if (leaders.leaderCount > group.cost) return undefined;
  const begun: number[] = [];
  for (let i = 0; i < leaders.leaderCount; i++) {
    const doc = leaders.leaders[i]!;
    if (store.isLive(doc) && store.nameKeys.exactKeyStartsWith(doc, key) && filter.passes(doc)) begun.push(doc);
  }
  return begun.length * group.ids.length > group.cost ? undefined : begun;
}

/** Names a key of several words begins (namesBegunBy), each with its best term plus its name-begins bonus. */
export function seedBegun(
  store: DocumentStore,
  collector: MatchCollector,
  terms: readonly ReadTerm[],
  begun: readonly number[],
): void {
  for (const doc of begun) {
    const top = bestContribution(store, terms, doc);
    if (top > 0 && !collector.has(doc)) collector.seed(doc, Math.fround(top + store.leadBonus[doc]!));
  }
}

/** A document's best contribution among the word's terms, looked up, as the reference stores it (a float32; 0: none). */
function bestContribution(store: DocumentStore, terms: readonly ReadTerm[], doc: number): number {
  let top = 0;
  for (const term of terms) {
    const weight = store.postings[term.id]?.weightOf(doc) ?? 0;
    if (weight > 0) top = Math.max(top, Math.fround(term.factor * weight));
  }
  return top;
}
