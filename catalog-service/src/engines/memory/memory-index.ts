/**
 * The in-memory search index of one catalog-service replica: every
 * searchable item, its terms in compact posting lists, and the browse orders
 * of every filter (all, per category, per type, per both), each with its
 * count. Pure and synchronous (no I/O), so a search never
 * yields the event loop half-way and tests drive it directly. How it is
 * filled and kept current is MemorySearchEngine's business.
 */
import type { CatalogItemState } from '@skills/common';
import { isSearchable } from '../../domain/indexed-state';
import {
  noMatches,
  SUGGEST_BELOW,
  TYPO_FALLBACK_BELOW,
  type CatalogItem,
  type SearchQuery,
  type SearchResult,
  type Suggestion,
} from '../search-engine';
import { DocumentStore } from './document-store';
import { FilterOrders } from './filter-orders';
import { countFacets, FacetCounter } from './facets';
import { DocFilter } from './doc-filter';
import { memoryIndexOptions, type MemoryIndexOptions } from './memory-index-options';
import { countEveryMatch, matchQuery } from './query-matcher';
import { fuseNeighbours, type Neighbour } from './meaning-fusion';
import type { MeaningWeights } from '../../domain/hybrid-ranking';
import { tokenize } from '../../domain/text-analysis';
import { byRelevance } from './ranked-page';
import { bestSpelling } from './spelling-suggestion';
import { TopK } from './top-k';
import { accepts, EVERY_CLASS } from './trust-classes';
import type { IndexableItem } from './types';

export class MemoryIndex {
  readonly store: DocumentStore;
  private readonly byId = new Map<string, number>();
  /**
   * versions of items seen but not searchable now (deleted, draft, private…), so a late older
   * state is refused; a searchable item's version lives with its document
   */
  private readonly hidden = new Map<string, number>();
  /** every filter's browse orders */
  private readonly orders: FilterOrders;
  private changes = 0;
  private readonly options: Readonly<MemoryIndexOptions>;

  /** Thresholds not given keep their defaults (memory-index-options.ts). */
  constructor(options: Partial<MemoryIndexOptions> = {}) {
    this.options = memoryIndexOptions(options);
    this.store = new DocumentStore(this.options);
    this.orders = new FilterOrders(this.store);
  }

  /** Moves on every change: answers computed before a change are not reused after it. */
  get generation(): number {
    return this.changes;
  }

  /** This index replaces `previous` (a reload): its generation moves past previous's, so no answer cached from it is reused. */
  succeed(previous: MemoryIndex): void {
    this.changes = Math.max(this.changes, previous.changes + 1);
  }

  /** Searchable items held. */
  get size(): number {
    return this.byId.size;
  }

  /** The version held for an item (searchable or not), if any. */
  versionOf(id: string): number | undefined {
    const doc = this.byId.get(id);
    return doc === undefined ? this.hidden.get(id) : this.store.versions[doc];
  }

  /**
   * Applies full item states: a state not newer than the held version is
   * skipped; a searchable one replaces the held document, any other removes it.
   * Returns how many changed the index.
   */
  apply(states: readonly CatalogItemState[]): number {
    let changed = 0;
    for (const state of states) {
      const held = this.versionOf(state.id);
      if (held !== undefined && held >= state.version) continue;
      this.remove(state.id);
      if (isSearchable(state)) {
        this.hidden.delete(state.id);
        this.add(state, state.version);
      } else {
        this.hidden.set(state.id, state.version);
      }
      changed++;
    }
    if (changed > 0) this.changes++;
    return changed;
  }

  /**
   * After a bulk load: sorts what is pending now (new dictionary terms, browse
   * orders, long lists by weight, the bit sets of the longest) rather than on
   * the first searches.
   */
  settle(): void {
    this.store.dictionary.mergePending();
    this.orders.sortByShares();
    this.prepareLongLists();
  }

  /** Lists give back their unused room; long ones get their order by weight, the longest their bit sets. */
  private prepareLongLists(): void {
    const ranks = () => this.store.newestRanks();
    const isLive = (doc: number) => this.store.isLive(doc);
    for (const list of this.store.postings) {
      if (!list) continue;
      list.trim();
      if (list.length >= this.options.impactOrderFrom) list.impactOrder(ranks);
      if (list.length >= this.store.capacity * this.options.denseListShare) list.liveBits(isLive);
    }
  }

  /**
   * `neighbours` (hybrid and semantic modes): the items nearest the query's
   * vector, most similar first, fused with the word matches (meaning-fusion.ts);
   * in semantic mode (`query.mode`) they alone answer.
   */
  search(query: SearchQuery, neighbours?: readonly Neighbour[], weights?: MeaningWeights): SearchResult {
    const { result, wordsFound } = this.find(query, neighbours, weights);
    if (query.q !== undefined && query.mode !== 'semantic' && wordsFound < SUGGEST_BELOW) {
      const suggestion = this.suggest(query, wordsFound);
      if (suggestion) result.suggestion = suggestion;
    }
    return result;
  }

  /** The ordinal of an item's live document, if it is searchable here. */
  docOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  private find(
    query: SearchQuery,
    neighbours?: readonly Neighbour[],
    weights?: MeaningWeights,
  ): { result: SearchResult; wordsFound: number } {
    const window = query.page * query.limit;
    const offset = (query.page - 1) * query.limit;
    if (query.q === undefined) return { result: this.browse(query, offset, window), wordsFound: 0 };
    const words = query.mode === 'semantic' ? undefined : matchQuery(this.store, query, TYPO_FALLBACK_BELOW);
    const fused = neighbours ? fuseNeighbours(this.store, query, words, neighbours, weights) : undefined;
    const { docs, scores, total, partial } = fused ?? words ?? { docs: [], scores: new Float32Array(0), total: 0 };
    const relevance = query.sort === 'relevance';
    const compare = this.compareFor(query);
    const top = new TopK(window, relevance ? byRelevance(scores, this.store) : (a, b) => compare(a, b) < 0);
    for (const doc of docs) top.offer(doc);
    const result = this.page(top.sorted().slice(offset, offset + query.limit), total);
    // Facets count every match; where the early stop read only part of them, they are read again unscored.
    if (query.facets && partial) {
      const counter = new FacetCounter(this.store, query.facets);
      countEveryMatch(this.store, query, partial, counter);
      if (fused) counter.addAll(fused.added);
      result.facets = counter.facets();
    } else if (query.facets) result.facets = countFacets(this.store, query.facets, docs);
    return { result, wordsFound: words?.total ?? 0 };
  }

  private compareFor(query: SearchQuery): (a: number, b: number) => number {
    if (query.sort === 'name') return this.store.compareName;
    if (query.sort === 'popular') return this.store.comparePopular;
    return this.store.compareNewest;
  }

  /**
   * A browse reads its filter's order, skipping the documents of the trust
   * classes it refuses (none, unless the catalog holds some: DocFilter.trust);
   * its total is the sum of its filter's counts in the classes it accepts.
   */
  private browse(query: SearchQuery, offset: number, window: number): SearchResult {
    if (query.tags?.length || query.policy) return this.browseFiltered(query, offset, window);
    const order = this.orders.orderOf(query.category, query.type, query.sort);
    if (!order) return noMatches(query);
    const { trust } = new DocFilter(this.store, query);
    const { trustClasses } = this.store;
    const everyClass = trust === EVERY_CLASS;
    const page: number[] = [];
    let seen = 0;
    order.forEach((doc) => {
      if (!everyClass && !accepts(trust, trustClasses[doc]!)) return true;
      if (seen++ >= offset) page.push(doc);
      return seen < window;
    });
    const total = everyClass ? order.size : this.orders.count(query.category, query.type, trust);
    const result = this.page(page, Math.min(total, this.options.countCap));
    if (query.facets) result.facets = this.orders.facets(query, query.facets, trust, this.options.countCap);
    return result;
  }

  /**
   * A browse by tag or under a policy's own filters, which the browse orders
   * do not split by: it reads the candidates of the tag's rarest word, or
   * walks the filter's order, checking each document.
   */
  private browseFiltered(query: SearchQuery, offset: number, window: number): SearchResult {
    const filter = new DocFilter(this.store, query);
    const docs: number[] = [];
    if (!filter.impossible) {
      const take = (doc: number): void => {
        if (this.store.isLive(doc) && filter.passes(doc)) docs.push(doc);
      };
      const driver = filter.driver;
      // last ordinal first, mostly newest first: the top-k below refuses most at its root
      if (driver) for (let i = driver.length - 1; i >= 0; i--) take(driver.docs[i]!);
      else
        this.orders.orderOf(query.category, query.type, 'newest')?.forEach((doc) => {
          take(doc);
          return true;
        });
    }
    const compare = this.compareFor(query);
    const top = new TopK(window, (a, b) => compare(a, b) < 0);
    for (const doc of docs) top.offer(doc);
    const result = this.page(
      top.sorted().slice(offset, offset + query.limit),
      Math.min(docs.length, this.options.countCap),
    );
    if (query.facets) result.facets = countFacets(this.store, query.facets, docs);
    return result;
  }

  /**
   * A close spelling of the query: each word replaced by the most frequent
   * term within the typo distance (itself included), kept when it finds more.
   */
  private suggest(query: SearchQuery, total: number): Suggestion | undefined {
    const words = tokenize(query.q ?? '');
    const corrected = words.map((word) => bestSpelling(this.store, word));
    const q = corrected.join(' ');
    if (words.length === 0 || q === words.join(' ')) return undefined;
    const found = this.find({ ...query, q, page: 1, limit: 1, facets: undefined, mode: 'lexical' }).result;
    return found.total > total ? { q, total: found.total } : undefined;
  }

  private page(docs: number[], total: number): SearchResult {
    return {
      items: docs.map((d) => this.store.item(d)),
      total,
      itemsJson: `[${docs.map((d) => this.store.jsonOf(d)).join(',')}]`,
    };
  }

  /**
   * This index, or, once the dead ordinals updates leave behind outnumber both
   * the live ones and MemoryIndexOptions.rebuildWhenDeadAbove, the same
   * documents in a fresh index without them (a dead ordinal costs memory until then).
   */
  compacted(): MemoryIndex {
    const dead = this.store.capacity - this.store.live;
    return dead > Math.max(this.options.rebuildWhenDeadAbove, this.store.live) ? this.rebuilt() : this;
  }

  /** The same documents in a fresh index, without the dead ordinals updates left behind. */
  rebuilt(): MemoryIndex {
    const fresh = new MemoryIndex(this.options);
    for (const [id, version] of this.hidden) fresh.hidden.set(id, version);
    for (const doc of this.byId.values()) fresh.add(stateOf(this.store.item(doc)), this.store.versions[doc]!);
    fresh.settle();
    fresh.succeed(this);
    return fresh;
  }

  private add(state: IndexableItem, version: number): void {
    const doc = this.store.add(state, version);
    this.byId.set(state.id, doc);
    this.orders.add(doc, state.category ?? '', state.type, this.store.trustClasses[doc]!);
  }

  private remove(id: string): void {
    const doc = this.byId.get(id);
    if (doc === undefined) return;
    const category = this.store.categoryOf(doc);
    const type = this.store.typeOf(doc);
    const trustClass = this.store.trustClasses[doc]!;
    this.byId.delete(id);
    this.store.remove(doc);
    this.orders.markDead(category, type, trustClass);
  }
}

/** An item as served, back in the shape the index takes (its details and trust regrouped). */
function stateOf(item: CatalogItem): IndexableItem {
  const {
    publisher,
    version,
    license,
    repositoryUrl,
    homepageUrl,
    downloads,
    latestVersion,
    verdict,
    publisherVerified,
    ...rest
  } = item;
  return {
    ...rest,
    details: { publisher, version, license, repositoryUrl, homepageUrl, downloads },
    trust: { latestVersion, verdict, publisherVerified, blockedReason: null },
  };
}
