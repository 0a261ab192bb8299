/**
 * The judgment queries made of an item's description: words someone
 * remembers from what a package does rather than from its name. Rarity is
 * counted the way search matches, by Porter2 stem over every active item's
 * name, description and tags (a word and its stem are one word to both
 * engines), and "not in the name" means no stem of the name or the slug.
 */
import { isStopWord, stemOf, tokenize } from '@skills/catalog-service';
import type { ImportLine } from './import-line';

/** How many active items hold each stem (name, description or tags), counted once per item. */
export type StemFrequencies = ReadonlyMap<string, number>;

/** A word a person could type to mean something: not a stop word, 3+ characters, at least one letter. */
function isContentWord(word: string): boolean {
  return word.length >= 3 && /\p{L}/u.test(word) && !isStopWord(word);
}

function stemsOf(text: string): Set<string> {
  return new Set(tokenize(text).map(stemOf));
}

export function stemFrequencies(items: readonly ImportLine[]): StemFrequencies {
  const df = new Map<string, number>();
  for (const item of items) {
    for (const stem of stemsOf(`${item.name} ${item.description} ${item.tags.join(' ')}`)) df.set(stem, (df.get(stem) ?? 0) + 1);
  }
  return df;
}

/** The description's content words whose stem is in neither the name nor the slug, each once, in the order written. */
function descriptionOnlyWords(item: ImportLine): string[] {
  const named = stemsOf(`${item.name} ${item.slug}`);
  const seen = new Set<string>();
  return tokenize(item.description).filter((word) => {
    const stem = stemOf(word);
    if (!isContentWord(word) || named.has(stem) || seen.has(stem)) return false;
    seen.add(stem);
    return true;
  });
}

const frequencyOf = (df: StemFrequencies, word: string): number => df.get(stemOf(word)) ?? 0;

/** What "common" and "rare" mean, as shares of the active items. */
export interface WordShares {
  /** a name word held by at least this share of the items is common (e.g. "react", "plugin") */
  commonShare: number;
  /** a description word held by at most this share is rare: it tells its item from most others */
  rareShare: number;
}

/** At 100,000 items: common in 200 items or more, rare in 50 or fewer. */
export const WORD_SHARES: WordShares = { commonShare: 0.002, rareShare: 0.0005 };

const rareMaxOf = (items: number, shares: WordShares): number => Math.max(1, shares.rareShare * items);

/**
 * The `count` rarest description-only words (2 or 3), in the order the
 * description says them, as someone recalling it would type them; undefined
 * when the description has fewer than two, or none of them is rare (nothing
 * in it tells the item apart).
 */
export function descriptionQuery(item: ImportLine, df: StemFrequencies, count: 2 | 3, items: number, shares = WORD_SHARES): string | undefined {
  const words = descriptionOnlyWords(item);
  if (words.length < 2) return undefined;
  const byRarity = [...words].sort((a, b) => frequencyOf(df, a) - frequencyOf(df, b) || a.localeCompare(b));
  if (frequencyOf(df, byRarity[0] as string) > rareMaxOf(items, shares)) return undefined;
  const rarest = new Set(byRarity.slice(0, count));
  return words.filter((word) => rarest.has(word)).join(' ');
}

/**
 * "<the name's most common word> <the description's rarest word not in the
 * name>": a broad word narrowed by a telling one. Undefined when the name has
 * no common word or the description no rare one.
 */
export function mixedQuery(item: ImportLine, df: StemFrequencies, items: number, shares = WORD_SHARES): string | undefined {
  // at least 2 items, so "common" never means "only this one" in a small catalog
  const commonMin = Math.max(2, shares.commonShare * items);
  const rareMax = rareMaxOf(items, shares);
  const common = tokenize(item.name)
    .filter((word) => isContentWord(word) && frequencyOf(df, word) >= commonMin)
    .sort((a, b) => frequencyOf(df, b) - frequencyOf(df, a) || a.localeCompare(b))[0];
  const rare = descriptionOnlyWords(item)
    .filter((word) => frequencyOf(df, word) <= rareMax)
    .sort((a, b) => frequencyOf(df, a) - frequencyOf(df, b) || a.localeCompare(b))[0];
  return common && rare ? `${common} ${rare}` : undefined;
}
