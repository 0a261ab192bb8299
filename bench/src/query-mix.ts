/**
 * The long-tail search mix: a fresh query per request, drawn from the
 * catalog itself, so the queries spread like the catalog's own words (a few
 * common, most rare) instead of cycling a fixed list a cache learns at once.
 * Every request carries its class, so latency is reported per kind of query.
 */
import { queryTerms } from '@skills/catalog-service';
import { pick, rng } from './catalog-generator';
import type { ImportLine } from './import-line';

export type QueryClass = 'one word' | 'two words' | 'prefix' | 'typo' | 'filtered' | 'browse' | 'intent';

/** Share of each class in the mix (sums to 100). */
export const CLASS_WEIGHTS: ReadonlyArray<readonly [QueryClass, number]> = [
  ['one word', 25],
  ['two words', 20],
  ['prefix', 15],
  ['typo', 10],
  ['filtered', 10],
  ['browse', 20],
];

export interface SearchRequest {
  cls: QueryClass;
  /** path and query under the search API, e.g. /api/v1/skills?q=kafka&limit=20 */
  path: string;
}

const LIMITS = [10, 20, 50] as const;
/** Share of requests that also ask for `facets=category,type` (docs/performance.md "Method": one in five). */
export const FACETS_SHARE = 0.2;
/** the search API refuses pages past the 10,000th result (catalog-service MAX_RESULT_WINDOW) */
const MAX_WINDOW = 10_000;
const MAX_BROWSE_PAGE = 50;
/** items tried before a class gives up on the catalog (e.g. no word long enough for a typo) */
const TRIES = 20;

/** Lower-cased words of ≥ `min` characters, each with at least one letter (a version number is not a word one searches). */
export function wordsOf(text: string, min = 3): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => [...w].length >= min && /\p{L}/u.test(w));
}

/** The item's searchable words: name first, then description. */
function itemWords(item: ImportLine): string[] {
  return wordsOf(`${item.name} ${item.description}`);
}

/**
 * `word` with two adjacent letters swapped at a random place after the first
 * letter (people rarely mistype the first one), or undefined when no swap
 * changes it (e.g. "aaaaa") or the word has fewer than 5 letters.
 */
export function swapAdjacent(word: string, next: () => number): string | undefined {
  const chars = [...word];
  if (chars.length < 5 || !chars.every((c) => /\p{L}/u.test(c))) return undefined;
  const places: number[] = [];
  for (let k = 1; k < chars.length - 1; k++) if (chars[k] !== chars[k + 1]) places.push(k);
  if (places.length === 0) return undefined;
  const k = pick(next, places);
  [chars[k], chars[k + 1]] = [chars[k + 1] as string, chars[k] as string];
  return chars.join('');
}

function pickClass(next: () => number): QueryClass {
  let roll = next() * 100;
  for (const [cls, weight] of CLASS_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return cls;
  }
  return 'browse';
}

/** The search parameters of one class from one item, or undefined when the item has no word that fits. */
function paramsFor(cls: QueryClass, item: ImportLine, next: () => number): Array<[string, string]> | undefined {
  const words = itemWords(item);
  switch (cls) {
    case 'one word':
      return words.length ? [['q', pick(next, words)]] : undefined;
    case 'two words': {
      const distinct = [...new Set(words)];
      if (distinct.length < 2) return undefined;
      const first = Math.floor(next() * distinct.length);
      let second = Math.floor(next() * (distinct.length - 1));
      if (second >= first) second += 1;
      // in the order the item says them, as someone recalling it would type them
      const [a, b] = first < second ? [first, second] : [second, first];
      return [['q', `${distinct[a]} ${distinct[b]}`]];
    }
    case 'prefix': {
      // a true prefix: the word must be longer than what is typed of it
      const long = words.filter((w) => [...w].length >= 4);
      if (!long.length) return undefined;
      const chars = [...pick(next, long)];
      const cut = Math.min(3 + Math.floor(next() * 3), chars.length - 1);
      return [['q', chars.slice(0, cut).join('')]];
    }
    case 'typo': {
      const long = words.filter((w) => [...w].length >= 5);
      if (!long.length) return undefined;
      const misspelt = swapAdjacent(pick(next, long), next);
      return misspelt ? [['q', misspelt]] : undefined;
    }
    case 'filtered':
      return words.length
        ? [
            ['q', pick(next, words)],
            ['category', item.category],
            ['type', item.type],
          ]
        : undefined;
    case 'browse':
      return [['category', item.category]];
  }
}

/** Encodes each name and value on its own (spaces as %20, not '+', so any proxy or parser reads the same query). */
export function searchPath(params: ReadonlyArray<readonly [string, string]>): string {
  return `/api/v1/skills?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** One request of the mix: class by weight, then a random item that can serve it, a random limit (and a page for browsing). */
export function longTailRequest(catalog: readonly ImportLine[], next: () => number): SearchRequest {
  if (catalog.length === 0) throw new Error('the long-tail mix needs a catalog');
  let cls = pickClass(next);
  let params: Array<[string, string]> | undefined;
  for (let tries = 0; !params && tries < TRIES; tries++) params = paramsFor(cls, pick(next, catalog), next);
  if (!params) {
    // a catalog without the words this class needs: browse, which any item serves
    cls = 'browse';
    params = paramsFor(cls, pick(next, catalog), next) as Array<[string, string]>;
  }
  const limit = pick(next, LIMITS);
  params.push(['limit', String(limit)]);
  if (next() < FACETS_SHARE) params.push(['facets', 'category,type']);
  if (cls === 'browse') {
    const page = Math.min(1 + Math.floor(next() * MAX_BROWSE_PAGE), Math.floor(MAX_WINDOW / limit));
    params.push(['page', String(page)]);
  }
  return { cls, path: searchPath(params) };
}

/** An endless long-tail mix, the same sequence for the same seed. */
export function longTailMix(catalog: readonly ImportLine[], seed: number): () => SearchRequest {
  const next = rng(seed);
  return () => longTailRequest(catalog, next);
}

/** `count` fixed requests of the long-tail mix: cycled, they are the cache's best case. */
export function repeatedRequests(catalog: readonly ImportLine[], count = 10, seed = 7): SearchRequest[] {
  const next = longTailMix(catalog, seed);
  return Array.from({ length: count }, () => next());
}

/** How people and agents begin a sentence asking for a tool. */
const INTENT_OPENINGS = ['i need to', 'how do i', 'a library to', 'something that can', 'help me', 'tool to'] as const;

/**
 * One sentence of the intent mix: an opening, then four to eight words of a
 * random item's description in its order, as someone describing the job
 * would say it; fresh on almost every request, so the query's vector is
 * rarely cached. Sentences of fewer than three words beside the stop words
 * are drawn again.
 */
export function intentRequest(catalog: readonly ImportLine[], next: () => number): SearchRequest {
  for (let tries = 0; tries < TRIES; tries++) {
    const words = wordsOf(pick(next, catalog).description, 2);
    if (words.length < 4) continue;
    const length = Math.min(words.length, 4 + Math.floor(next() * 5));
    const from = Math.floor(next() * (words.length - length + 1));
    const q = `${pick(next, INTENT_OPENINGS)} ${words.slice(from, from + length).join(' ')}`;
    // three words beside the stop words, or the service would answer it on its words alone
    if (queryTerms(q).length < 3) continue;
    return {
      cls: 'intent',
      path: searchPath([
        ['q', q],
        ['limit', String(pick(next, LIMITS))],
      ]),
    };
  }
  throw new Error('the intent mix needs items whose descriptions hold three words beside the stop words');
}

/** An endless intent mix, the same sequence for the same seed. */
export function intentMix(catalog: readonly ImportLine[], seed: number): () => SearchRequest {
  const next = rng(seed);
  return () => intentRequest(catalog, next);
}

/** A request of the mix asked on words alone (`mode=lexical`): what the mix costs without the model. */
export function lexicalOnly(source: () => SearchRequest): () => SearchRequest {
  return () => {
    const request = source();
    return { ...request, path: `${request.path}&mode=lexical` };
  };
}

/** A seed from a label (FNV-1a), so each run of each phase draws its own queries, the same on every bench run. */
export function seedOf(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
