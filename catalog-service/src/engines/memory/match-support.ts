/**
 * What the query matchers share: per-query scratch arrays, the term groups a
 * query word expands to, the idf, filters and the exact-name test.
 */
import { editDistanceWithin, typoBudget } from '../../domain/spelling';
import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import type { PostingList } from './postings';
import { EXACT_NAME_BONUS, TYPO_NAME_BONUS } from '../../domain/ranking';
import { tokenize } from '../../domain/text-analysis';

/** Scratch arrays sized to the store, reused by every query (searches are synchronous). */
export class Scratch {
  marks = new Int32Array(0);
  scores = new Float32Array(0);
  best = new Float32Array(0);
  /**
   * the sum of the groups before the current one (best[] is the current group's), and of all so
   * far: summed in double and rounded to float32 once per stored score, as Lucene sums a
   * conjunction's clauses; in the one-word path, base holds the document's name bonus
   */
  base = new Float64Array(0);
  sums = new Float64Array(0);
  stamp = 0;
  /** one bit set per query word, reused: which documents hold any of its terms */
  private groupBits: Uint32Array[] = [];
  /** by term id: the stamp of the query whose names may begin with that term */
  leadStamps = new Int32Array(0);
  private leadStamp = 0;

  /** A fresh stamp for marking terms in `leadStamps` (sized to `terms`). */
  beginLeads(terms: number): number {
    if (this.leadStamps.length < terms) this.leadStamps = new Int32Array(Math.ceil(terms * 1.25) + 1024);
    if (++this.leadStamp >= 0x7fffffff) {
      this.leadStamps.fill(0);
      this.leadStamp = 1;
    }
    return this.leadStamp;
  }

  reserve(docs: number): void {
    if (this.marks.length < docs) {
      const size = Math.ceil(docs * 1.25) + 1024;
      this.marks = new Int32Array(size);
      this.scores = new Float32Array(size);
      this.best = new Float32Array(size);
      this.base = new Float64Array(size);
      this.sums = new Float64Array(size);
      this.stamp = 0;
    }
  }

  /** The bit set of query word `g`, `words` long and cleared. */
  bitsOf(g: number, words: number): Uint32Array {
    let bits = this.groupBits[g];
    if (!bits || bits.length < words) this.groupBits[g] = bits = new Uint32Array(Math.ceil(words * 1.25) + 64);
    bits.fill(0, 0, words);
    return bits;
  }

  /** A fresh range of mark values for a query of `groups` groups: a document marked `base + g` has matched groups 0..g. */
  begin(groups: number): number {
    if (this.stamp + groups + 1 >= 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    const base = this.stamp + 1;
    this.stamp += groups + 1;
    return base;
  }
}

const scratchOf = new WeakMap<DocumentStore, Scratch>();

export function scratchFor(store: DocumentStore): Scratch {
  let scratch = scratchOf.get(store);
  if (!scratch) scratchOf.set(store, (scratch = new Scratch()));
  scratch.reserve(store.capacity);
  return scratch;
}

/**
 * A query's filters: category and type as codes (two integer comparisons per
 * document), tags checked on the document's own list. Every word of a tag is
 * an index term too, so the shortest posting list among them holds every
 * tagged document: `driver`, the candidates of a browse by tag.
 */
export class DocFilter {
  readonly none: boolean;
  /** a category, type or tag word no document ever had: nothing can match */
  readonly impossible: boolean;
  readonly driver: PostingList | undefined;
  /** no tags: the category and type masks (mask()) are the whole filter */
  readonly byCodesOnly: boolean;
  private readonly category: number;
  private readonly type: number;
  private readonly tags: readonly string[];
  private readonly categoryBits: Uint32Array | undefined;
  private readonly typeBits: Uint32Array | undefined;

  constructor(
    private readonly store: DocumentStore,
    query: SearchQuery,
  ) {
    const category = query.category === undefined ? -1 : store.codeOf(`c:${query.category}`);
    const type = query.type === undefined ? -1 : store.codeOf(`t:${query.type}`);
    this.tags = query.tags ?? [];
    let driver: PostingList | undefined;
    let unknownTagWord = false;
    for (const word of this.tags.flatMap((tag) => tokenize(tag))) {
      const id = store.dictionary.idOf(word);
      const list = id === undefined ? undefined : store.postings[id];
      if (!list) unknownTagWord = true;
      else if (!driver || list.length < driver.length) driver = list;
    }
    this.driver = driver;
    this.impossible = category === undefined || type === undefined || unknownTagWord;
    this.category = category ?? -1;
    this.type = type ?? -1;
    this.none = query.category === undefined && query.type === undefined && this.tags.length === 0;
    this.byCodesOnly = this.tags.length === 0;
    this.categoryBits = this.category >= 0 ? store.codeBits(this.category) : undefined;
    this.typeBits = this.type >= 0 ? store.codeBits(this.type) : undefined;
  }

  /** The documents of 32-bit word `w` (ordinals 32w to 32w + 31) in the filter's category and type (tags aside). */
  mask(w: number): number {
    let mask = -1;
    if (this.categoryBits) mask &= w < this.categoryBits.length ? this.categoryBits[w]! : 0;
    if (this.typeBits) mask &= w < this.typeBits.length ? this.typeBits[w]! : 0;
    return mask;
  }

  passes(doc: number): boolean {
    if (this.category >= 0 && this.store.categoryCodes[doc] !== this.category) return false;
    if (this.type >= 0 && this.store.typeCodes[doc] !== this.type) return false;
    if (this.tags.length === 0) return true;
    const held = this.store.item(doc).tags;
    return this.tags.every((tag) => held.includes(tag));
  }
}

export function isExactName(store: DocumentStore, doc: number, key: string): boolean {
  return store.exactKeys[doc] === key || store.slugKeys[doc] === key;
}

/**
 * What a document adds to its text score for its name, for one query key:
 * exact (name or slug), spelt with typos (only in a typo run: `typos`),
 * begun by the query (2+ letters; its precomputed bonus), or nothing. The
 * key's words and budgets are worked out once: a typo run asks this of
 * every candidate.
 */
export function nameBonusOf(store: DocumentStore, key: string, typos = false): (doc: number) => number {
  const nearly = typos ? nearlyMatcher(key) : undefined;
  const exact = store.exactlyNamed(key);
  const space = key.indexOf(' ');
  // A name a key of several words begins starts with the key's first word: one integer comparison
  // rules out the rest before any string is read (a broad query asks this of every match).
  const firstTerm = space < 0 ? undefined : (store.dictionary.idOf(key.slice(0, space)) ?? -2);
  const begins = key.length >= 2;
  return (doc) => {
    if (exact.length > 0 && exact.includes(doc)) return EXACT_NAME_BONUS;
    if (nearly && (nearly(store.exactKeys[doc] as string) || nearly(store.slugKeys[doc] as string))) return TYPO_NAME_BONUS;
    if (!begins || (firstTerm !== undefined && store.leadTerms[doc] !== firstTerm)) return 0;
    return (store.exactKeys[doc] as string).startsWith(key) ? store.leadBonus[doc]! : 0;
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

/** Whether a name has the same words as `key`, each within its typo budget (domain/spelling.ts). */
function nearlyMatcher(key: string): (name: string) => boolean {
  const words = key.split(' ');
  const budgets = words.map(typoBudget);
  const slack = 2 * words.length;
  const only = words.length === 1 ? key : undefined;
  return (name) => {
    if (Math.abs(name.length - key.length) > slack) return false;
    if (only !== undefined) return !name.includes(' ') && editDistanceWithin(only, name, budgets[0]!);
    const parts = name.split(' ');
    return parts.length === words.length && parts.every((part, i) => editDistanceWithin(words[i]!, part, budgets[i]!));
  };
}
