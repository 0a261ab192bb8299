/**
 * What a document's name adds to its text score (domain/ranking.ts holds
 * the bonuses): the exact name, the name the query begins, the leading-word
 * rule of one-word queries and the misspelt-name test of typo runs.
 */
import { editDistanceWithin, typoBudget } from '../../domain/spelling';
import type { DocumentStore } from './document-store';
import { EXACT_NAME_BONUS, TYPO_NAME_BONUS } from '../../domain/ranking';

/** Whether the key is the document's whole name or slug, word for word. */
export function isExactName(store: DocumentStore, doc: number, key: string): boolean {
  return store.nameKeys.exactKeyIs(doc, key) || store.nameKeys.slugKeyIs(doc, key);
}

/**
 * What a document adds to its text score for its name, for one query key:
 * exact (name or slug), spelt with typos (only in a typo run: `typos`),
 * begun by the query (2+ letters; its precomputed bonus), or nothing. The
 * key's words and budgets are worked out once: a typo run asks this of
 * every candidate.
 */
export function nameBonusOf(store: DocumentStore, key: string, typos = false): (doc: number) => number {
  const misspelt = typos ? misspeltNameMatcher(store, key) : undefined;
  const exact = store.exactlyNamed(key);
  const space = key.indexOf(' ');
  // A name a key of several words begins starts with the key's first word: one integer comparison
  // rules out the rest before any string is read (a broad query asks this of every match).
  const firstTerm = space < 0 ? undefined : (store.dictionary.idOf(key.slice(0, space)) ?? -2);
  const begins = key.length >= 2;
  return (doc) => {
    if (exact.length > 0 && exact.includes(doc)) return EXACT_NAME_BONUS;
    if (misspelt?.(doc)) return TYPO_NAME_BONUS;
    if (!begins || (firstTerm !== undefined && store.leadTerms[doc] !== firstTerm)) return 0;
    return store.nameKeys.exactKeyStartsWith(doc, key) ? store.leadBonus[doc]! : 0;
  };
}

/**
 * The leading-word rule: in a one-word query outside typo runs, a document
 * whose name the query begins scores its name's first word (that term's
 * contribution) plus its name-begins bonus, whatever else it holds, so the
 * early stop can seed such names with final scores from the leader lists.
 */
export function usesLeadingWord(key: string, typos: boolean): boolean {
  return !typos && key.length >= 2 && !key.includes(' ');
}

/** A name-begun document's score under the leading-word rule: `weight` is its first word's, `factor` that term's. */
export function leadingWordScore(store: DocumentStore, weight: number, factor: number, doc: number): number {
  return Math.fround(factor * weight) + store.leadBonus[doc]!;
}

/**
 * Whether a document's name or slug could be a one-word `key` spelt with
 * typos: one word within the key's budget of its length. A cheap superset of
 * nameBonusOf's typo test (no edit distance), for bounds.
 */
export function mayBeMisspeltName(store: DocumentStore, key: string): (doc: number) => boolean {
  const low = key.length - typoBudget(key);
  const high = key.length + typoBudget(key);
  const fits = (length: number) => length >= low && length <= high && length > 0;
  return (doc) => fits(store.nameWordLength[doc]!) || fits(store.slugWordLength[doc]!);
}

/**
 * Whether a document's name or slug has the same words as `key`, each within
 * its typo budget (domain/spelling.ts). A key is spelt out (NameKeys) only
 * when its length is within reach.
 */
function misspeltNameMatcher(store: DocumentStore, key: string): (doc: number) => boolean {
  const words = key.split(' ');
  const budgets = words.map(typoBudget);
  const slack = 2 * words.length;
  const only = words.length === 1 ? key : undefined;
  const misspells = (name: string) => {
    if (only !== undefined) return !name.includes(' ') && editDistanceWithin(only, name, budgets[0]!);
    const parts = name.split(' ');
    return parts.length === words.length && parts.every((part, i) => editDistanceWithin(words[i]!, part, budgets[i]!));
  };
  const reachable = (length: number) => Math.abs(length - key.length) <= slack;
  const keys = store.nameKeys;
  if (only !== undefined) {
    // a one-word key can only be a one-word name or slug: their lengths are kept (0 for several words)
    const fits = (length: number) => length > 0 && reachable(length);
    return (doc) =>
      (fits(store.nameWordLength[doc]!) && misspells(keys.exactKeyOf(doc))) ||
      (fits(store.slugWordLength[doc]!) && misspells(keys.slugKeyOf(doc)));
  }
  return (doc) =>
    (reachable(keys.exactKeyLength(doc)) && misspells(keys.exactKeyOf(doc))) ||
    (reachable(keys.slugKeyLength(doc)) && misspells(keys.slugKeyOf(doc)));
}
