/**
 * What a name can add to a one-word match that was not seeded: a typo run's
 * misspelt-name bonus, and the name-begins bonus where names the query
 * begins are not seeded (typo runs, and keys too costly to seed). The early
 * stop adds a list's largest such bonus to its bound, and checks a posting
 * against its own document's bonus before taking it.
 */
import { lengthBits } from './bits';
import type { DocumentStore } from './document-store';
import { mayBeMisspeltName } from './name-rules';
import type { PostingList } from './postings';
import type { Scratch } from './scratch';
import type { TermGroup } from './types';
import { MAX_NAME_BEGINS_BONUS, TYPO_NAME_BONUS } from '../../domain/ranking';
import { typoBudget } from '../../domain/spelling';

export interface NameBonusBounds {
  /** the largest bonus a document of `list` can earn */
  capOf(list: PostingList | undefined): number;
  /** an upper bound of the bonus `doc` earns */
  of(doc: number): number;
}

/** Seeded: every name that earns a bonus was taken before reading, so none is left to bound. */
export const NO_NAME_BONUS: NameBonusBounds = { capOf: () => 0, of: () => 0 };

export function nameBonusBounds(
  store: DocumentStore,
  scratch: Scratch,
  group: TermGroup,
  key: string,
  typos: boolean,
): NameBonusBounds {
  // several words in the key (stop words before the one that counts): a name they begin may start with any term
  const severalWords = key.includes(' ');
  // Names the key begins start with one of the group's terms the key begins (every completion is in
  // the group): those terms are stamped, and the largest name-begins bonus of their leaders is the cap.
  const leads = scratch.beginLeads(store.dictionary.size);
  const { leadStamps } = scratch;
  let cap = 0;
  if (key.length >= 2) {
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
  return {
    capOf: (list) =>
      Math.max(
        cap,
        typos && (severalWords || ((list?.oneWordNames ?? 0) & misspeltLengths) !== 0) ? TYPO_NAME_BONUS : 0,
      ),
    of: (doc) => {
      if (severalWords) return Math.max(cap, typos ? TYPO_NAME_BONUS : 0);
      const typo = mayBeMisspelt?.(doc) ? TYPO_NAME_BONUS : 0;
      return leadStamps[store.leadTerms[doc]!] === leads ? Math.max(typo, store.leadBonus[doc]!) : typo;
    },
  };
}
