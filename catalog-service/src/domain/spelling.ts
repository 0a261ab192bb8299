/**
 * The typo rules every engine applies (docs/search.md "Typos and
 * suggestions"): one edit (insertion, deletion, substitution or a swap of
 * neighbours) in words of 4+ letters, two in words of 8+; words with digits
 * are taken as typed.
 */

/** Words shorter than this get no typo candidates (an edit changes a short word too much). */
export const TYPO_MIN_LENGTH = 4;
/** Words this long may be two edits away from what was meant. */
export const TWO_TYPOS_MIN_LENGTH = 8;

/** Edits a word may be away from the term it stands for. */
export function typoBudget(word: string): 0 | 1 | 2 {
  if (word.length < TYPO_MIN_LENGTH || /\d/.test(word)) return 0;
  return word.length >= TWO_TYPOS_MIN_LENGTH ? 2 : 1;
}

/** Three rows of the distance table, reused by every call (searches run one at a time). */
let table = new Int32Array(3 * 64);

/** Optimal string alignment distance ≤ `max` (adjacent swaps count one), leaving a row as soon as it cannot be. */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return false;
  if (a === b) return true;
  const width = lb + 1;
  // A fresh table per call was most of its cost: typo runs call it for every candidate term and name.
  if (table.length < 3 * width) table = new Int32Array(6 * width);
  const t = table;
  // offsets of the rows two back, one back and being filled
  let prev2 = 0;
  let prev = width;
  let row = 2 * width;
  for (let j = 0; j <= lb; j++) t[prev + j] = j;
  for (let i = 1; i <= la; i++) {
    t[row] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(t[prev + j]! + 1, t[row + j - 1]! + 1, t[prev + j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        d = Math.min(d, t[prev2 + j - 2]! + 1);
      t[row + j] = d;
      if (d < best) best = d;
    }
    if (best > max) return false;
    const spare = prev2;
    prev2 = prev;
    prev = row;
    row = spare;
  }
  return t[prev + lb]! <= max;
}

/** Optimal string alignment distance ≤ 1, in one pass. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    // substitution, or a swap of neighbours
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Typo candidates of a word as the memory dictionary finds them (memory/term-dictionary.ts). */
export interface TypoForms {
  /** exactly one edit away, no digits */
  oneEdit: string[];
  /** 8+ letter words: two edits away, same first letter, 6+ letters, no digits */
  twoEdits: string[];
}

const DIGIT = /\d/;

/** Keeps, of the terms the suggester offered for `word`, those the typo rules allow. */
export function typoFormsOf(word: string, offered: readonly string[]): TypoForms {
  const forms: TypoForms = { oneEdit: [], twoEdits: [] };
  if (word.length < TYPO_MIN_LENGTH || DIGIT.test(word)) return forms;
  for (const term of offered) {
    if (term === word || DIGIT.test(term)) continue;
    if (withinOneEdit(word, term)) forms.oneEdit.push(term);
    if (
      word.length >= TWO_TYPOS_MIN_LENGTH &&
      term.length >= TWO_TYPOS_MIN_LENGTH - 2 &&
      term[0] === word[0] &&
      Math.abs(term.length - word.length) <= 2 &&
      editDistanceWithin(word, term, 2)
    ) {
      forms.twoEdits.push(term);
    }
  }
  return forms;
}
