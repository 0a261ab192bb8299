/**
 * What a document's name adds to its text score (docs/search.md "Names"):
 * the item the query names comes first, then, in a typo run, a name the query
 * misspells, or a name the query begins (someone typing a name), the most
 * used first and shorter names before longer ones. Without it a rare
 * completion wins on idf: "vit" would list "vitesse" before "vite".
 */
import { popularityOf } from '../../domain/popularity';

export const EXACT_NAME_BONUS = 1_000;
/**
 * A name the query spells with typos (every word within its budget), in a
 * typo run: above partial matches, level with names the query begins (one
 * typing "souffl" may mean "souffleur" as much as "souffle").
 */
export const TYPO_NAME_BONUS = 200;
const NAME_BEGINS_BONUS = 100;
const NAME_BEGINS_POPULARITY = 200;
/** per word of the name after the first, up to three: "inquirer" before "inquirer-type" */
const WORD_COST = 30;

/** The largest name-begins bonus (a one-word name at the highest popularity). */
export const MAX_NAME_BEGINS_BONUS = NAME_BEGINS_BONUS + NAME_BEGINS_POPULARITY;

/** The bonus of a name of `words` words when a query begins it: 100 + 200 × popularity − 30 per further word (≤ 3). */
export function nameBeginsBonus(words: number, downloads: number): number {
  return Math.fround(NAME_BEGINS_BONUS + NAME_BEGINS_POPULARITY * popularityOf(downloads) - WORD_COST * Math.min(Math.max(words - 1, 0), 3));
}
