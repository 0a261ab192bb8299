/**
 * Every term the index has seen, with what a query needs to expand a word
 * without scanning the vocabulary: the surface forms of a stem, a sorted view
 * for prefixes (binary search), and a deletion neighbourhood for typos
 * (SymSpell: two words one edit apart share a one-letter deletion).
 */
import { editDistanceWithin, TWO_TYPOS_MIN_LENGTH, TYPO_MIN_LENGTH, withinOneEdit } from '../../domain/spelling';
import { stemOf } from '../../domain/text-analysis';
import { popcount } from './bits';

export class TermDictionary {
  private readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  private readonly byStem = new Map<string, number[]>();
  private readonly deletions = new Map<string, number[]>();
  /**
   * long terms by first letter, the candidates of a two-edit typo (the first letter is kept, as
   * Elasticsearch's prefix_length 1), each with the set of letters it holds as a bit mask
   */
  private readonly longByInitial = new Map<string, { ids: number[]; masks: number[] }>();
  /** every term but the pending ones, in code-unit order: prefixes are found by binary search */
  private sorted: string[] = [];
  /** terms added since the last merge, unsorted: a prefix lookup scans them */
  private pending: string[] = [];

  /** New terms wait unsorted until `pendingMerge` of them, then merge into the sorted view in one pass. */
  constructor(private readonly pendingMerge: number) {}

  get size(): number {
    return this.terms.length;
  }

  idOf(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** The id of `term`, added (with its stem and typo neighbourhood) when new. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id !== undefined) return id;
    id = this.terms.length;
    this.ids.set(term, id);
    this.terms.push(term);
    push(this.byStem, stemOf(term), id);
    if (typoEligible(term)) for (const variant of deletionsOf(term)) push(this.deletions, variant, id);
    if (term.length >= TWO_TYPOS_MIN_LENGTH - 2 && typoEligible(term)) {
      let bucket = this.longByInitial.get(term[0] as string);
      if (!bucket) this.longByInitial.set(term[0] as string, (bucket = { ids: [], masks: [] }));
      bucket.ids.push(id);
      bucket.masks.push(letterMask(term));
    }
    this.pending.push(term);
    if (this.pending.length >= this.pendingMerge) this.mergePending();
    return id;
  }

  /** Ids of the terms sharing `term`'s stem (itself included when known). */
  sameStem(term: string): readonly number[] {
    return this.byStem.get(stemOf(term)) ?? [];
  }

  /** Ids of every term that starts with `prefix`, the prefix itself included. */
  withPrefix(prefix: string): number[] {
    const out: number[] = [];
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length; i++) {
      const term = this.sorted[i] as string;
      if (!term.startsWith(prefix)) break;
      out.push(this.ids.get(term) as number);
    }
    for (const term of this.pending) if (term.startsWith(prefix)) out.push(this.ids.get(term) as number);
    return out;
  }

  /** Ids of the terms exactly one edit (insertion, deletion, substitution, adjacent swap) from `word`. */
  oneEditFrom(word: string): number[] {
    if (!typoEligible(word)) return [];
    const found = new Set<number>();
    const consider = (id: number | undefined) => {
      if (id !== undefined && !found.has(id) && withinOneEdit(word, this.terms[id] as string)) found.add(id);
    };
    // word + one letter = term: the term's deletion is the word itself
    for (const id of this.deletions.get(word) ?? []) consider(id);
    for (const variant of deletionsOf(word)) {
      consider(this.ids.get(variant)); // word - one letter = term
      for (const id of this.deletions.get(variant) ?? []) consider(id); // substitution or swap
    }
    found.delete(this.ids.get(word) ?? -1);
    return [...found];
  }

  /**
   * Ids of the terms two edits from `word` (8+ letters, same first letter).
   * A scan of the long terms sharing the first letter with a bounded
   * distance: a 2-deletion neighbourhood would cost ~45 keys per long term,
   * and this runs only when the exact query found almost nothing.
   */
  twoEditsFrom(word: string): number[] {
    if (word.length < TWO_TYPOS_MIN_LENGTH || !typoEligible(word)) return [];
    const out: number[] = [];
    const bucket = this.longByInitial.get(word[0] as string);
    if (!bucket) return out;
    const mask = letterMask(word);
    const { ids, masks } = bucket;
    for (let i = 0; i < ids.length; i++) {
      // an edit changes at most two letters of the set: more than four differ, and it is further than two edits
      if (popcount(mask ^ masks[i]!) > 4) continue;
      const term = this.terms[ids[i]!] as string;
      if (Math.abs(term.length - word.length) <= 2 && term !== word && editDistanceWithin(word, term, 2))
        out.push(ids[i]!);
    }
    return out;
  }

  /** Merges the terms waiting unsorted into the sorted view (after a bulk load, so the first prefix query does not pay for it). */
  mergePending(): void {
    if (this.pending.length === 0) return;
    const fresh = this.pending.sort();
    this.pending = [];
    const merged: string[] = new Array(this.sorted.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < fresh.length)
      merged[k++] = (this.sorted[i] as string) < (fresh[j] as string) ? this.sorted[i++] : fresh[j++];
    while (i < this.sorted.length) merged[k++] = this.sorted[i++];
    while (j < fresh.length) merged[k++] = fresh[j++];
    this.sorted = merged as string[];
  }
}

/** The letters a word holds, one bit each (a–z; anything else shares the bits by its code). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 32);
  return mask;
}

function typoEligible(word: string): boolean {
  return word.length >= TYPO_MIN_LENGTH && !/\d/.test(word);
}

function deletionsOf(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return out;
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
