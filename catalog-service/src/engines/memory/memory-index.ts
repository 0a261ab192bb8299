/**
 * The in-memory search index of one catalog-service replica: every
 * searchable item, its terms in compact posting lists, and the browse orders
 * of every filter (all, per category, per type, per both), each with its
 * count. Pure and synchronous (no I/O), so a search never
 * yields the event loop half-way and tests drive it directly. How it is
 * filled and kept current is MemorySearchEngine's business.
 */
import type { CatalogItemState } from '@skills/common';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import type { SearchQuery, SearchResult } from '../search-engine';
import { BrowseOrder } from './browse-order';
import { DocumentStore } from './document-store';
import { matchQuery } from './query-matcher';
import { TopK } from './top-k';

/** Fewer matches than this and typo candidates join the query (as the Postgres engine did). */
export const TYPO_FALLBACK_BELOW = 5;

/** What the index keeps of an item state (a CatalogItem is one too). */
export type IndexableItem = Pick<CatalogItemState, 'id' | 'slug' | 'name' | 'description' | 'type' | 'category' | 'tags' | 'updatedAt'>;

export function isSearchable(state: Pick<CatalogItemState, 'status' | 'visibility'>): boolean {
  return state.status === 'active' && state.visibility === 'public';
}

export class MemoryIndex {
  readonly store = new DocumentStore();
  private readonly byId = new Map<string, number>();
  /**
   * versions of items seen but not searchable now (deleted, draft, private…), so a late older
   * state is refused; a searchable item's version lives with its document
   */
  private readonly hidden = new Map<string, number>();
  /** by filter key: a browse reads only its own filter's documents, already in order */
  private readonly orders = new Map<string, { newest: BrowseOrder; byName: BrowseOrder }>();
  /** moves on every change: answers computed before a change are not reused after it */
  generation = 0;

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
    if (changed > 0) this.generation++;
    return changed;
  }

  /** After a bulk load: sort what is pending now rather than on the first search. */
  settle(): void {
    this.store.dictionary.settle();
    for (const order of this.orders.values()) {
      order.newest.merge();
      order.byName.merge();
    }
  }

  search(query: SearchQuery): SearchResult {
    const window = query.page * query.limit;
    const offset = (query.page - 1) * query.limit;
    if (query.q === undefined) return this.browse(query, offset, window);
    const { docs, scores, total } = matchQuery(this.store, query, TYPO_FALLBACK_BELOW);
    const compare =
      query.sort === 'newest'
        ? this.store.compareNewest
        : query.sort === 'name'
          ? this.store.compareName
          : (a: number, b: number) => scores[b]! - scores[a]! || this.store.compareNewest(a, b);
    const top = new TopK(window, (a, b) => compare(a, b) < 0);
    for (const doc of docs) top.offer(doc);
    return this.page(top.sorted().slice(offset, offset + query.limit), total);
  }

  private browse(query: SearchQuery, offset: number, window: number): SearchResult {
    const orders = this.orders.get(filterKey(query.category, query.type));
    if (!orders) return { items: [], total: 0 };
    const order = query.sort === 'name' ? orders.byName : orders.newest;
    const page: number[] = [];
    let seen = 0;
    order.forEach((doc) => {
      if (seen++ >= offset) page.push(doc);
      return seen < window;
    });
    return this.page(page, Math.min(order.size, MAX_RESULT_WINDOW));
  }

  private page(docs: number[], total: number): SearchResult {
    return { items: docs.map((d) => this.store.item(d)), total, itemsJson: `[${docs.map((d) => this.store.jsonOf(d)).join(',')}]` };
  }

  /** The same documents in a fresh index, without the dead ordinals updates left behind. */
  rebuilt(): MemoryIndex {
    const fresh = new MemoryIndex();
    for (const [id, version] of this.hidden) fresh.hidden.set(id, version);
    for (const doc of this.byId.values()) fresh.add(this.store.item(doc), this.store.versions[doc]!);
    fresh.settle();
    fresh.generation = this.generation + 1;
    return fresh;
  }

  private add(state: IndexableItem, version: number): void {
    const doc = this.store.add(state, version);
    this.byId.set(state.id, doc);
    for (const key of filterKeys(state.category ?? '', state.type)) {
      let orders = this.orders.get(key);
      if (!orders) {
        const live = (d: number) => this.store.isLive(d);
        orders = { newest: new BrowseOrder(this.store.compareNewest, live), byName: new BrowseOrder(this.store.compareName, live) };
        this.orders.set(key, orders);
      }
      orders.newest.add(doc);
      orders.byName.add(doc);
    }
  }

  private remove(id: string): void {
    const doc = this.byId.get(id);
    if (doc === undefined) return;
    const item = this.store.item(doc);
    this.byId.delete(id);
    this.store.remove(doc);
    for (const key of filterKeys(item.category, item.type)) {
      const orders = this.orders.get(key);
      orders?.newest.died();
      orders?.byName.died();
    }
  }
}

function filterKey(category: string | undefined, type: string | undefined): string {
  return `${category ?? '*'}\u0000${type ?? '*'}`;
}

/** The four browses a document belongs to: all, its category, its type, both. */
function filterKeys(category: string, type: string): string[] {
  return [filterKey(undefined, undefined), filterKey(category, undefined), filterKey(undefined, type), filterKey(category, type)];
}

