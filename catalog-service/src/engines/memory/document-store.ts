/**
 * The documents of the memory index by ordinal, and their terms. A new state
 * of an item gets a new ordinal (the old one dies), so posting lists only
 * ever grow at the end and stay sorted by ordinal; sort keys outlive a
 * document so orders holding a dead ordinal can still compare it until they
 * sweep it out. Per-document data is kept in typed arrays where it can be:
 * at 1,000,000 items every object or array per document costs tens of MB.
 */
import { detailsOf, trustOf, type ItemType } from '@skills/common';
import { analyzeItem } from '../../domain/item-analysis';
import type { CatalogItem } from '../search-engine';
import { BrowseOrder } from './browse-order';
import { ExactNameTable } from './exact-name-table';
import { ItemColumns } from './item-columns';
import type { MemoryIndexOptions } from './memory-index-options';
import { clearBit, lengthBit, setBit } from './bits';
import { PostingList } from './postings';
import { TermDictionary } from './term-dictionary';
import { compareLowerCase, NameKeys } from './name-keys';
import { isoTimeOf } from './iso-time';
import { TRUST_CLASS_COUNT, trustClassOf, verdictOfClass, verifiedOfClass } from './trust-classes';
import { tokenize } from '../../domain/text-analysis';
import type { IndexableItem, NewestRanks } from './types';

export class DocumentStore {
  readonly dictionary: TermDictionary;
  readonly postings: PostingList[] = [];
  /** the served strings of each document */
  readonly columns = new ItemColumns();
  /**
   * items served, as an object and as JSON, built from the columns for their
   * first page and kept (up to MemoryIndexOptions.servedItemsKept, in the
   * ring below, first in first out): a page is served as these strings
   * joined, and a catalog's popular items are served again and again
   */
  private readonly servedItems: Array<CatalogItem | undefined> = [];
  private readonly json: Array<string | undefined> = [];
  private readonly servedRing: Int32Array;
  private servedNext = 0;
  readonly ids: string[] = [];
  /** the name's and the slug's words joined by spaces: an exact-name query matches one of them */
  readonly nameKeys = new NameKeys(this.columns.names, this.columns.slugs);
  /** live documents by exact key: an exact-name match is found without reading postings */
  private readonly exactNames = new ExactNameTable((doc, kind, key) =>
    kind === 'name' ? this.nameKeys.exactKeyIs(doc, key) : this.nameKeys.slugKeyIs(doc, key),
  );
  /** 1 for a live ordinal: the hottest test of every posting read, one byte instead of an object slot */
  alive = new Uint8Array(1024);
  /** the version of the state each ordinal holds */
  versions = new Int32Array(1024);
  updatedMs = new Float64Array(1024);
  downloads = new Float64Array(1024);
  /** the term id of the name's first word (-1: none), and the bonus the name earns when a query begins it (name-rules.ts) */
  leadTerms = new Int32Array(1024);
  leadBonus = new Float32Array(1024);
  /**
   * the length of the name's and of the slug's one word (0: several words): a typo run's bound
   * looks here, not at the strings, before spelling a name out (name-rules.ts)
   */
  nameWordLength = new Uint8Array(1024);
  slugWordLength = new Uint8Array(1024);
  /** category and type as small integers, so filters compare numbers while reading postings */
  categoryCodes = new Int32Array(1024);
  typeCodes = new Int32Array(1024);
  /** the trust class of each ordinal (trust-classes.ts): verdict × publisher verified */
  trustClasses = new Uint8Array(1024);
  /** by trust class, its live documents as a bit set, and their number */
  private readonly classSets: Uint32Array[] = Array.from({ length: TRUST_CLASS_COUNT }, () => new Uint32Array(0));
  readonly classLive = new Int32Array(TRUST_CLASS_COUNT);
  /**
   * the category × type × trust class of each ordinal, as a small integer:
   * facets of a broad word tally one number per match, and sum the pairs per
   * value after
   */
  pairCodes = new Int32Array(1024);
  private readonly pairs = new Map<number, number>();
  /** by pair, its category code, its type code and its trust class */
  readonly pairCategories: number[] = [];
  readonly pairTypes: number[] = [];
  readonly pairClasses: number[] = [];
  private readonly codes = new Map<string, number>();
  /** by code, its live documents as a bit set (word-sets.ts): a filter ANDs 32 documents at a time */
  private readonly codeSets: Uint32Array[] = [];
  /** the category or type each code stands for */
  private readonly codeValues: string[] = [];
  /** newestRanks() as last worked out, and the count of changes it saw */
  private ranks: NewestRanks | undefined;
  private changes = 0;
  /** ordinals ever handed out (live and dead) */
  capacity = 0;
  live = 0;

  constructor(readonly options: Readonly<MemoryIndexOptions>) {
    this.dictionary = new TermDictionary(options.pendingMerge);
    this.servedRing = new Int32Array(Math.max(1, options.servedItemsKept)).fill(-1);
    this.newest = new BrowseOrder(this.compareNewest, (doc) => this.isLive(doc), options);
  }

  isLive(doc: number): boolean {
    return this.alive[doc] === 1;
  }

  /** The public item at `doc` (live ordinals only). */
  item(doc: number): CatalogItem {
    let item = this.servedItems[doc];
    if (item === undefined) {
      item = this.servedItems[doc] = this.build(doc);
      this.keepServed(doc);
    }
    return item;
  }

  /** `doc` takes the ring's next place, and the item that held it is let go (rebuilt if served again). */
  private keepServed(doc: number): void {
    const oldest = this.servedRing[this.servedNext]!;
    if (oldest >= 0) {
      this.servedItems[oldest] = undefined;
      this.json[oldest] = undefined;
    }
    this.servedRing[this.servedNext] = doc;
    this.servedNext = (this.servedNext + 1) % this.servedRing.length;
  }

  private build(doc: number): CatalogItem {
    const links = this.columns.linksOf(doc);
    return {
      id: this.ids[doc] as string,
      slug: this.columns.slugs[doc] as string,
      name: this.columns.names[doc] as string,
      description: this.columns.description(doc),
      type: this.typeOf(doc),
      category: this.categoryOf(doc),
      tags: this.columns.tags(doc).slice(),
      publisher: links.publisher,
      version: links.version,
      license: links.license,
      repositoryUrl: links.repositoryUrl,
      homepageUrl: links.homepageUrl,
      downloads: this.downloads[doc]!,
      updatedAt: isoTimeOf(this.updatedMs[doc]!),
      latestVersion: this.columns.latestVersion(doc),
      verdict: verdictOfClass(this.trustClasses[doc]!),
      publisherVerified: verifiedOfClass(this.trustClasses[doc]!),
    };
  }

  categoryOf(doc: number): string {
    return this.valueOfCode(this.categoryCodes[doc]!);
  }

  typeOf(doc: number): ItemType {
    return this.valueOfCode(this.typeCodes[doc]!) as ItemType;
  }

  /** Newest first, then by id: the order of browsing and of every tie. */
  readonly compareNewest = (a: number, b: number): number =>
    this.updatedMs[b]! - this.updatedMs[a]! || compareStrings(this.ids[a]!, this.ids[b]!);

  /** every live document newest first (the browse without filters): what ranks the ties of impact orders */
  readonly newest: BrowseOrder;

  /** Most downloaded first, then newest (sort=popular). */
  readonly comparePopular = (a: number, b: number): number =>
    this.downloads[b]! - this.downloads[a]! || this.compareNewest(a, b);

  /** By name in lower case, then by id (sort=name). */
  readonly compareName = (a: number, b: number): number =>
    compareLowerCase(this.columns.names[a]!, this.columns.names[b]!) || compareStrings(this.ids[a]!, this.ids[b]!);

  /**
   * Each live document's place in the newest-first order (rank[doc]; dead
   * ordinals: -1), and the documents by place: worked out again only after a
   * change, so the impact orders built between two writes share one.
   */
  newestRanks(): NewestRanks {
    if (this.ranks?.changes === this.changes && this.ranks.rank.length >= this.capacity) return this.ranks;
    const rank = new Int32Array(this.capacity).fill(-1);
    const docs = new Int32Array(this.live);
    let next = 0;
    this.newest.forEach((doc) => {
      rank[doc] = next;
      docs[next++] = doc;
      return true;
    });
    return (this.ranks = { rank, docs, changes: this.changes, positions: new Int32Array(this.capacity) });
  }

  /** The code of a category (`c:<slug>`) or type (`t:<type>`); undefined for one no document ever had. */
  codeOf(key: string, create = false): number | undefined {
    let code = this.codes.get(key);
    if (code === undefined && create) {
      this.codes.set(key, (code = this.codes.size));
      this.codeValues.push(key.slice(2));
    }
    return code;
  }

  private pairOf(category: number, type: number, trustClass: number): number {
    const key = (category * 0x10000 + type) * TRUST_CLASS_COUNT + trustClass;
    let pair = this.pairs.get(key);
    if (pair === undefined) {
      this.pairs.set(key, (pair = this.pairs.size));
      this.pairCategories.push(category);
      this.pairTypes.push(type);
      this.pairClasses.push(trustClass);
    }
    return pair;
  }

  /** The live documents of a trust class, as a bit set (it may end before the last ordinal). */
  classBits(trustClass: number): Uint32Array {
    return this.classSets[trustClass]!;
  }

  /** The live documents of a category or type code, as a bit set (it may end before the last ordinal). */
  codeBits(code: number): Uint32Array {
    return this.codeSets[code] ?? new Uint32Array(0);
  }

  /** The category or type a code stands for. */
  valueOfCode(code: number): string {
    return this.codeValues[code] as string;
  }

  /** The item at `doc` as JSON (live ordinals only). */
  jsonOf(doc: number): string {
    return (this.json[doc] ??= JSON.stringify(this.item(doc)));
  }

  /** Live documents whose name or slug words are exactly `key`. */
  exactlyNamed(key: string): readonly number[] {
    return this.exactNames.lookup(key);
  }

  /** Adds `state` at version `version` as a new document; returns its ordinal. */
  add(state: IndexableItem, version: number): number {
    const doc = this.capacity++;
    this.ensureCapacity(this.capacity);
    const details = detailsOf(state);
    const text = {
      name: state.name,
      slug: state.slug ?? '',
      description: state.description,
      tags: state.tags,
      downloads: details.downloads,
    };
    this.columns.set(doc, { ...text, details, latestVersion: trustOf(state).latestVersion });
    this.alive[doc] = 1;
    this.ids[doc] = state.id;
    const { nameWords, exactKey, slugKey, weights, leadBonus } = analyzeItem(text);
    this.nameKeys.set(doc, exactKey, slugKey);
    // a word is at most 40 characters (text-analysis.ts): it fits a byte
    this.nameWordLength[doc] = nameWords.length === 1 ? exactKey.length : 0;
    this.slugWordLength[doc] = slugKey.length > 0 && !slugKey.includes(' ') ? slugKey.length : 0;
    this.exactNames.add(doc, 'name', exactKey);
    if (slugKey !== exactKey) this.exactNames.add(doc, 'slug', slugKey);
    this.versions[doc] = version;
    this.updatedMs[doc] = Date.parse(state.updatedAt);
    this.downloads[doc] = details.downloads;
    this.leadBonus[doc] = leadBonus;
    this.categoryCodes[doc] = this.codeOf(`c:${state.category ?? ''}`, true) as number;
    this.typeCodes[doc] = this.codeOf(`t:${state.type}`, true) as number;
    const trustClass = (this.trustClasses[doc] = trustClassOf(state));
    this.classSets[trustClass] = setBit(this.classSets[trustClass]!, doc);
    this.classLive[trustClass]!++;
    this.pairCodes[doc] = this.pairOf(this.categoryCodes[doc]!, this.typeCodes[doc]!, trustClass);
    for (const code of [this.categoryCodes[doc]!, this.typeCodes[doc]!])
      this.codeSets[code] = setBit(this.codeSets[code] ?? new Uint32Array(0), doc);
    const oneWordNames = lengthBit(this.nameWordLength[doc]!) | lengthBit(this.slugWordLength[doc]!);
    this.index(doc, weights, oneWordNames);
    const lead = nameWords[0] === undefined ? undefined : this.dictionary.idOf(nameWords[0]);
    this.leadTerms[doc] = lead ?? -1;
    if (lead !== undefined) this.postings[lead]!.addLeader(doc, this.leadBonus[doc]!);
    this.live++;
    this.newest.add(doc);
    this.changes++;
    return doc;
  }

  /** `doc` dies: readers skip it from now on, and each structure holding it sweeps it out in its own time. */
  remove(doc: number): void {
    if (!this.isLive(doc)) return;
    this.alive[doc] = 0;
    this.newest.markDead();
    this.changes++;
    for (const code of [this.categoryCodes[doc]!, this.typeCodes[doc]!]) clearBit(this.codeSets[code]!, doc);
    clearBit(this.classSets[this.trustClasses[doc]!]!, doc);
    this.classLive[this.trustClasses[doc]!]!--;
    this.servedItems[doc] = undefined;
    this.json[doc] = undefined;
    this.live--;
    const exactKey = this.nameKeys.exactKeyOf(doc);
    const slugKey = this.nameKeys.slugKeyOf(doc);
    this.exactNames.remove(doc, 'name', exactKey);
    if (slugKey !== exactKey) this.exactNames.remove(doc, 'slug', slugKey);
    // The terms come from the text again rather than from a per-document list kept for this alone.
    const isLive = (d: number) => this.isLive(d);
    const text = [this.columns.names[doc] as string, this.columns.description(doc), this.columns.tags(doc).join(' ')];
    this.columns.clear(doc);
    for (const term of new Set(text.flatMap(tokenize))) {
      const id = this.dictionary.idOf(term);
      if (id !== undefined) this.postings[id]?.markDead(doc, isLive);
    }
  }

  /** Adds `doc` to the posting list of each of its terms, with the term's weight there (domain/ranking.ts). */
  private index(doc: number, weights: Map<string, number>, oneWordNames: number): void {
    for (const [term, weight] of weights) {
      const id = this.dictionary.intern(term);
      (this.postings[id] ??= new PostingList()).add(doc, weight, oneWordNames);
    }
  }

  private ensureCapacity(n: number): void {
    if (n <= this.updatedMs.length) return;
    const size = Math.max(n, Math.ceil(this.updatedMs.length * 1.5));
    this.updatedMs = grow(this.updatedMs, new Float64Array(size));
    this.downloads = grow(this.downloads, new Float64Array(size));
    this.leadTerms = grow(this.leadTerms, new Int32Array(size));
    this.leadBonus = grow(this.leadBonus, new Float32Array(size));
    this.categoryCodes = grow(this.categoryCodes, new Int32Array(size));
    this.typeCodes = grow(this.typeCodes, new Int32Array(size));
    this.pairCodes = grow(this.pairCodes, new Int32Array(size));
    this.trustClasses = grow(this.trustClasses, new Uint8Array(size));
    this.nameWordLength = grow(this.nameWordLength, new Uint8Array(size));
    this.slugWordLength = grow(this.slugWordLength, new Uint8Array(size));
    this.versions = grow(this.versions, new Int32Array(size));
    this.alive = grow(this.alive, new Uint8Array(size));
  }
}

/** Code-unit order, as the ids and lower-cased names are compared everywhere in the index. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function grow<T extends Uint8Array | Int32Array | Float32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
