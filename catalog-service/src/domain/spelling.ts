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

/** Optimal string alignment distance ≤ `max` (adjacent swaps count one), leaving a row as soon as it cannot be. */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return false;
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = Array.from({ length: lb + 1 }, (_, j) => j);
  let row = new Array<number>(lb + 1).fill(0);
  for (let i = 1; i <= la; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= lb; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return false;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[lb]! <= max;
}
