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
import { SUGGEST_BELOW, TYPO_FALLBACK_BELOW, type CatalogItem, type FacetField, type Facets, type SearchQuery, type SearchResult, type Suggestion } from '../search-engine';
import { BrowseOrder } from './browse-order';
import { DocumentStore } from './document-store';
import { countFacets, emptyFacets, FacetCounter, rankFacetValues } from './facets';
import { DocFilter } from './doc-filter';
import { memoryIndexOptions, type MemoryIndexOptions } from './memory-index-options';
import { countEveryMatch, matchQuery } from './query-matcher';
import { tokenize } from '../../domain/text-analysis';
import { byRelevance } from './ranked-page';
import { TopK } from './top-k';
import type { IndexableItem } from './types';

export class MemoryIndex {
  readonly store: DocumentStore;
  private readonly byId = new Map<string, number>();
  /**
   * versions of items seen but not searchable now (deleted, draft, private…), so a late older
   * state is refused; a searchable item's version lives with its document
   */
  private readonly hidden = new Map<string, number>();
  /** by filter key: a browse reads only its own filter's documents, already in order */
  private readonly orders = new Map<string, Orders>();
  private changes = 0;
  private readonly options: Readonly<MemoryIndexOptions>;

  /** Thresholds not given keep their defaults (memory-index-options.ts). */
  constructor(options: Partial<MemoryIndexOptions> = {}) {
    this.options = memoryIndexOptions(options);
    this.store = new DocumentStore(this.options);
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
   * After a bulk load: sort what is pending now (browse orders, long lists by
   * weight, the bit sets of the longest) rather than on the first searches. Each kind of order is sorted
   * once, unfiltered, and every filter takes its share of it in one pass:
   * comparator sorts of every filter's order were most of a million-item load.
   */
  settle(): void {
    this.store.dictionary.settle();
    const all = this.orders.get(ALL);
    if (all) {
      for (const kind of ['newest', 'byName', 'popular'] as const) {
        const shares = new Map<string, number[]>();
        // a document's three filtered orders, by category × type pair: worked out once per pair, not per document
        const sharesOf: number[][][] = [];
        for (const doc of all[kind].merged()) {
          const pair = this.store.pairCodes[doc]!;
          let mine = sharesOf[pair];
          if (!mine) {
            const category = this.store.valueOfCode(this.store.pairCategories[pair]!);
            const type = this.store.valueOfCode(this.store.pairTypes[pair]!);
            mine = [filterKey(category, undefined), filterKey(undefined, type), filterKey(category, type)].map((key) => {
              const share = shares.get(key) ?? [];
              shares.set(key, share);
              return share;
            });
            sharesOf[pair] = mine;
          }
          for (const share of mine) share.push(doc);
        }
        for (const [key, orders] of this.orders) if (key !== ALL) orders[kind].adopt(Int32Array.from(shares.get(key) ?? []));
      }
    }
    const ranks = () => this.store.newestRanks();
    const isLive = (doc: number) => this.store.isLive(doc);
    for (const list of this.store.postings) {
      if (!list) continue;
      list.trim();
      if (list.length >= this.options.impactOrderFrom) list.impactOrder(ranks);
      if (list.length >= this.store.capacity * this.options.denseListShare) list.liveBits(isLive);
    }
  }

  search(query: SearchQuery): SearchResult {
    const result = this.find(query);
    if (query.q !== undefined && result.total < SUGGEST_BELOW) {
      const suggestion = this.suggest(query, result.total);
      if (suggestion) result.suggestion = suggestion;
    }
    return result;
  }

  private find(query: SearchQuery): SearchResult {
    const window = query.page * query.limit;
    const offset = (query.page - 1) * query.limit;
    if (query.q === undefined) return this.browse(query, offset, window);
    const { docs, scores, total, partial } = matchQuery(this.store, query, TYPO_FALLBACK_BELOW);
    const relevance = query.sort === 'relevance';
    const compare = this.compareFor(query);
    const top = new TopK(window, relevance ? byRelevance(scores, this.store) : (a, b) => compare(a, b) < 0);
    for (const doc of docs) top.offer(doc);
    const result = this.page(top.sorted().slice(offset, offset + query.limit), total);
    // Facets count every match; where the early stop read only part of them, they are read again unscored.
    if (query.facets && partial) {
      const counter = new FacetCounter(this.store, query.facets);
      countEveryMatch(this.store, query, partial, counter);
      result.facets = counter.facets();
    } else if (query.facets) result.facets = countFacets(this.store, query.facets, docs);
    return result;
  }

  private compareFor(query: SearchQuery): (a: number, b: number) => number {
    if (query.sort === 'name') return this.store.compareName;
    if (query.sort === 'popular') return this.store.comparePopular;
    return this.store.compareNewest;
  }

  private browse(query: SearchQuery, offset: number, window: number): SearchResult {
    if (query.tags?.length) return this.browseTagged(query, offset, window);
    const orders = this.orders.get(filterKey(query.category, query.type));
    if (!orders) return { items: [], total: 0, ...(query.facets ? { facets: emptyFacets(query.facets) } : {}) };
    const order = query.sort === 'name' ? orders.byName : query.sort === 'popular' ? orders.popular : orders.newest;
    const page: number[] = [];
    let seen = 0;
    order.forEach((doc) => {
      if (seen++ >= offset) page.push(doc);
      return seen < window;
    });
    const result = this.page(page, Math.min(order.size, this.options.countCap));
    if (query.facets) result.facets = this.browseFacets(query, query.facets);
    return result;
  }

  /** A browse by tag reads the candidates of the tag's rarest word, or walks the filter's order when a tag has no word. */
  private browseTagged(query: SearchQuery, offset: number, window: number): SearchResult {
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
        this.orders.get(filterKey(query.category, query.type))?.newest.forEach((doc) => {
          take(doc);
          return true;
        });
    }
    const compare = this.compareFor(query);
    const top = new TopK(window, (a, b) => compare(a, b) < 0);
    for (const doc of docs) top.offer(doc);
    const result = this.page(top.sorted().slice(offset, offset + query.limit), Math.min(docs.length, this.options.countCap));
    if (query.facets) result.facets = countFacets(this.store, query.facets, docs);
    return result;
  }

  /** Facets of a browse without tags: the size of each filter's order, nothing read. */
  private browseFacets(query: SearchQuery, fields: readonly FacetField[]): Facets {
    const facets: Facets = {};
    for (const field of fields) {
      const counts = new Map<string, number>();
      for (const orders of this.orders.values()) {
        const value = orders[field];
        // one order per value of this field, under the query's filter on the other one
        const other = field === 'category' ? orders.type === query.type : orders.category === query.category;
        if (value === undefined || !other || (query[field] !== undefined && value !== query[field])) continue;
        if (orders.newest.size > 0) counts.set(value, orders.newest.size);
      }
      facets[field] = rankFacetValues(counts, this.options.countCap);
    }
    return facets;
  }

  /**
   * A close spelling of the query: each word replaced by the most frequent
   * term within the typo distance (itself included), kept when it finds more.
   */
  private suggest(query: SearchQuery, total: number): Suggestion | undefined {
    const words = tokenize(query.q ?? '');
    const corrected = words.map((word) => this.bestSpelling(word));
    const q = corrected.join(' ');
    if (words.length === 0 || q === words.join(' ')) return undefined;
    const found = this.find({ ...query, q, page: 1, limit: 1, facets: undefined });
    return found.total > total ? { q, total: found.total } : undefined;
  }

  private bestSpelling(word: string): string {
    const { dictionary, postings } = this.store;
    const frequency = (id: number | undefined) => (id === undefined ? 0 : (postings[id]?.live ?? 0));
    let best = word;
    let bestFrequency = frequency(dictionary.idOf(word));
    for (const id of [...dictionary.oneEditFrom(word), ...dictionary.twoEditsFrom(word)]) {
      const f = frequency(id);
      const term = dictionary.terms[id] as string;
      if (f > bestFrequency || (f === bestFrequency && f > 0 && best !== word && term < best)) {
        best = term;
        bestFrequency = f;
      }
    }
    return best;
  }

  private page(docs: number[], total: number): SearchResult {
    return { items: docs.map((d) => this.store.item(d)), total, itemsJson: `[${docs.map((d) => this.store.jsonOf(d)).join(',')}]` };
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
    for (const filter of filtersOf(state.category ?? '', state.type)) {
      const key = filterKey(filter.category, filter.type);
      let orders = this.orders.get(key);
      if (!orders) {
        const live = (d: number) => this.store.isLive(d);
        const byName = new BrowseOrder(this.store.compareName, live, this.options);
        const popular = new BrowseOrder(this.store.comparePopular, live, this.options);
        // every live document newest first is the store's own order (it ranks the ties of impact orders)
        const newest = key === ALL ? this.store.newest : new BrowseOrder(this.store.compareNewest, live, this.options);
        orders = { ...filter, newest, byName, popular, kept: key === ALL ? [byName, popular] : [newest, byName, popular] };
        this.orders.set(key, orders);
      }
      for (const order of orders.kept) order.add(doc);
    }
  }

  private remove(id: string): void {
    const doc = this.byId.get(id);
    if (doc === undefined) return;
    const item = this.store.item(doc);
    this.byId.delete(id);
    this.store.remove(doc);
    for (const filter of filtersOf(item.category, item.type)) {
      const orders = this.orders.get(filterKey(filter.category, filter.type));
      if (orders) for (const order of orders.kept) order.died();
    }
  }
}

/** An item as served, back in the shape the index takes (its details regrouped). */
function stateOf(item: CatalogItem): IndexableItem {
  const { publisher, version, license, repositoryUrl, homepageUrl, downloads, ...rest } = item;
  return { ...rest, details: { publisher, version, license, repositoryUrl, homepageUrl, downloads } };
}

function filterKey(category: string | undefined, type: string | undefined): string {
  return `${category ?? '*'}\u0000${type ?? '*'}`;
}

/** The key of the browse without filters. */
const ALL = filterKey(undefined, undefined);

interface Filter {
  category?: string;
  type?: string;
}

/** One filter's browse orders (its live documents newest first, by name, most downloaded first) and the filter itself. */
interface Orders extends Filter {
  newest: BrowseOrder;
  byName: BrowseOrder;
  popular: BrowseOrder;
  /** the orders this index adds to and removes from: all three, but the unfiltered newest, which the store keeps */
  kept: BrowseOrder[];
}

/** The four browses a document belongs to: all, its category, its type, both. */
function filtersOf(category: string, type: string): Filter[] {
  return [{}, { category }, { type }, { category, type }];
}
