/**
 * The judgment queries made of an item's description: words someone
 * remembers from what a package does rather than from its name. Rarity is
 * counted the way search matches, by Porter2 stem over every active item's
 * name, description and tags (a word and its stem are one word to both
 * engines), and "not in the name" means no stem of the name or the slug.
 * A query of either class must identify its target: no other item holds all
 * its words, but the target's namesakes and twins (same description), which
 * count as relevant. Otherwise the words describe several items equally (all
 * "reporter protractor" packages) and the judgment would score a guess.
 */
import { isStopWord, stemOf, tokenize } from '@skills/catalog-service';
import type { ImportLine } from './import-line';

/** A word a person could type to mean something: not a stop word, 3+ characters, at least one letter. */
function isContentWord(word: string): boolean {
  return word.length >= 3 && /\p{L}/u.test(word) && !isStopWord(word);
}

function stemsOf(text: string): Set<string> {
  return new Set(tokenize(text).map(stemOf));
}

const searchableText = (item: ImportLine): string => `${item.name} ${item.description} ${item.tags.join(' ')}`;
const twinKey = (item: ImportLine): string => item.description.trim().toLowerCase();

/** Which active items hold each stem (name, description or tags): its frequency, and who holds a whole query. */
export class CatalogWords {
  private readonly holders = new Map<string, number[]>();

  constructor(readonly items: readonly ImportLine[]) {
    items.forEach((item, i) => {
      for (const stem of stemsOf(searchableText(item))) {
        const list = this.holders.get(stem);
        if (list) list.push(i);
        else this.holders.set(stem, [i]);
      }
    });
  }

  /** items holding the word's stem */
  frequency(word: string): number {
    return this.holders.get(stemOf(word))?.length ?? 0;
  }

  /** Whether every item holding all of `query`'s words is `target`, a namesake or a twin of it. */
  identifies(query: string, target: ImportLine): boolean {
    const stems = [...stemsOf(query)];
    const rarest = stems.map((stem) => this.holders.get(stem) ?? []).sort((a, b) => a.length - b.length)[0] ?? [];
    return rarest.every((i) => {
      const item = this.items[i] as ImportLine;
      if (item === target || item.name.toLowerCase() === target.name.toLowerCase() || twinKey(item) === twinKey(target))
        return true;
      const held = stemsOf(searchableText(item));
      return !stems.every((stem) => held.has(stem));
    });
  }
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
 * when the description has fewer than two, none of them is rare (nothing
 * in it tells the item apart), or they do not identify the item.
 */
export function descriptionQuery(
  item: ImportLine,
  words: CatalogWords,
  count: 2 | 3,
  shares = WORD_SHARES,
): string | undefined {
  const candidates = descriptionOnlyWords(item);
  if (candidates.length < 2) return undefined;
  const byRarity = [...candidates].sort((a, b) => words.frequency(a) - words.frequency(b) || a.localeCompare(b));
  if (words.frequency(byRarity[0] as string) > rareMaxOf(words.items.length, shares)) return undefined;
  const rarest = new Set(byRarity.slice(0, count));
  const q = candidates.filter((word) => rarest.has(word)).join(' ');
  return words.identifies(q, item) ? q : undefined;
}

/**
 * "<the name's most common word> <the description's rarest word not in the
 * name>": a broad word narrowed by a telling one. Undefined when the name has
 * no common word, the description no rare one, or the two do not identify the item.
 */
export function mixedQuery(item: ImportLine, words: CatalogWords, shares = WORD_SHARES): string | undefined {
  // at least 2 items, so "common" never means "only this one" in a small catalog
  const commonMin = Math.max(2, shares.commonShare * words.items.length);
  const rareMax = rareMaxOf(words.items.length, shares);
  const common = tokenize(item.name)
    .filter((word) => isContentWord(word) && words.frequency(word) >= commonMin)
    .sort((a, b) => words.frequency(b) - words.frequency(a) || a.localeCompare(b))[0];
  const rare = descriptionOnlyWords(item)
    .filter((word) => words.frequency(word) <= rareMax)
    .sort((a, b) => words.frequency(a) - words.frequency(b) || a.localeCompare(b))[0];
  if (!common || !rare) return undefined;
  const q = `${common} ${rare}`;
  return words.identifies(q, item) ? q : undefined;
}
