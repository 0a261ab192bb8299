/**
 * The browse orders of every filter (all, per category, per type, per both):
 * each filter's live documents newest first, by name and most downloaded
 * first, and how many of them each trust class holds. A browse reads only
 * its own filter's documents, already in order (skipping the trust classes
 * it refuses), and its count and its facets are sums of those class counts:
 * nothing is read.
 */
import type { FacetField, Facets, SearchQuery } from '../search-engine';
import { BrowseOrder } from './browse-order';
import type { DocumentStore } from './document-store';
import { facetValueOfClass, rankFacetValues } from './facets';
import { accepts, TRUST_CLASS_COUNT } from './trust-classes';

interface Filter {
  category?: string;
  type?: string;
}

/** One filter's browse orders and the filter itself. */
interface Orders extends Filter {
  newest: BrowseOrder;
  byName: BrowseOrder;
  popular: BrowseOrder;
  /** the orders added to and removed from here: all three, but the unfiltered newest, which the store keeps */
  maintained: BrowseOrder[];
  /** live documents by trust class (trust-classes.ts) */
  classCounts: Int32Array;
}

export class FilterOrders {
  private readonly byFilter = new Map<string, Orders>();

  constructor(private readonly store: DocumentStore) {}

  /** The order a browse of this filter reads, by its sort; undefined when no document ever had the filter. */
  orderOf(category: string | undefined, type: string | undefined, sort: SearchQuery['sort']): BrowseOrder | undefined {
    const orders = this.byFilter.get(filterKey(category, type));
    if (!orders) return undefined;
    return sort === 'name' ? orders.byName : sort === 'popular' ? orders.popular : orders.newest;
  }

  /** Live documents of this filter whose trust class is in `trust` (a mask), uncapped. */
  count(category: string | undefined, type: string | undefined, trust: number): number {
    const orders = this.byFilter.get(filterKey(category, type));
    return orders ? countOf(orders.classCounts, trust) : 0;
  }

  /** Adds `doc` to the four browses it belongs to: all, its category, its type, both. */
  add(doc: number, category: string, type: string, trustClass: number): void {
    for (const filter of filtersOf(category, type)) {
      const key = filterKey(filter.category, filter.type);
      let orders = this.byFilter.get(key);
      if (!orders) this.byFilter.set(key, (orders = this.ordersOf(filter, key === ALL)));
      for (const order of orders.maintained) order.add(doc);
      orders.classCounts[trustClass]!++;
    }
  }

  /** A document of this category, type and trust class died. */
  markDead(category: string, type: string, trustClass: number): void {
    for (const filter of filtersOf(category, type)) {
      const orders = this.byFilter.get(filterKey(filter.category, filter.type));
      if (!orders) continue;
      for (const order of orders.maintained) order.markDead();
      orders.classCounts[trustClass]!--;
    }
  }

  /**
   * Each kind of order is sorted once, unfiltered, and every filter takes
   * its share of it in one pass, already in order: no filter's order is
   * sorted on its own (after a bulk load).
   */
  sortByShares(): void {
    const all = this.byFilter.get(ALL);
    if (!all) return;
    for (const kind of ['newest', 'byName', 'popular'] as const) {
      const shares = this.sharesOf(all[kind].merged());
      for (const [key, orders] of this.byFilter)
        if (key !== ALL) orders[kind].replaceWith(Int32Array.from(shares.get(key) ?? []));
    }
  }

  /**
   * Facets of a browse without tags: each filter's count in the trust
   * classes the query accepts (`trust`, a mask), counts capped at `cap`.
   */
  facets(query: SearchQuery, fields: readonly FacetField[], trust: number, cap: number): Facets {
    const facets: Facets = {};
    for (const field of fields) {
      const counts = new Map<string, number>();
      if (field === 'trust' || field === 'verifiedPublisher') {
        // the query's own filter's counts, by class
        const orders = this.byFilter.get(filterKey(query.category, query.type));
        for (let c = 0; c < TRUST_CLASS_COUNT; c++) {
          const n = orders && accepts(trust, c) ? orders.classCounts[c]! : 0;
          if (n === 0) continue;
          const value = facetValueOfClass(field, c);
          counts.set(value, (counts.get(value) ?? 0) + n);
        }
        facets[field] = rankFacetValues(counts, cap);
        continue;
      }
      for (const orders of this.byFilter.values()) {
        const value = orders[field];
        // one order per value of this field, under the query's filter on the other one
        const other = field === 'category' ? orders.type === query.type : orders.category === query.category;
        if (value === undefined || !other || (query[field] !== undefined && value !== query[field])) continue;
        const n = countOf(orders.classCounts, trust);
        if (n > 0) counts.set(value, n);
      }
      facets[field] = rankFacetValues(counts, cap);
    }
    return facets;
  }

  /** The documents of `sorted` by filter key, in its order (each document goes to its category's, its type's and their pair's). */
  private sharesOf(sorted: Int32Array): Map<string, number[]> {
    const { store } = this;
    const shares = new Map<string, number[]>();
    // a category × type pair's three filtered orders: looked up once per pair, not per document
    const sharesByPair: number[][][] = [];
    for (const doc of sorted) {
      const pair = store.pairCodes[doc]!;
      let pairShares = sharesByPair[pair];
      if (!pairShares) {
        const category = store.valueOfCode(store.pairCategories[pair]!);
        const type = store.valueOfCode(store.pairTypes[pair]!);
        pairShares = [filterKey(category, undefined), filterKey(undefined, type), filterKey(category, type)].map(
          (key) => {
            const share = shares.get(key) ?? [];
            shares.set(key, share);
            return share;
          },
        );
        sharesByPair[pair] = pairShares;
      }
      for (const share of pairShares) share.push(doc);
    }
    return shares;
  }

  private ordersOf(filter: Filter, all: boolean): Orders {
    const { store } = this;
    const live = (doc: number) => store.isLive(doc);
    const byName = new BrowseOrder(store.compareName, live, store.options);
    const popular = new BrowseOrder(store.comparePopular, live, store.options);
    // every live document newest first is the store's own order (it ranks the ties of impact orders)
    const newest = all ? store.newest : new BrowseOrder(store.compareNewest, live, store.options);
    return {
      ...filter,
      newest,
      byName,
      popular,
      maintained: all ? [byName, popular] : [newest, byName, popular],
      classCounts: new Int32Array(TRUST_CLASS_COUNT),
    };
  }
}

/** The documents counted in the classes of `trust` (a mask). */
function countOf(classCounts: Int32Array, trust: number): number {
  let n = 0;
  for (let c = 0; c < TRUST_CLASS_COUNT; c++) if (accepts(trust, c)) n += classCounts[c]!;
  return n;
}

function filterKey(category: string | undefined, type: string | undefined): string {
  return `${category ?? '*'}\u0000${type ?? '*'}`;
}

/** The key of the browse without filters. */
const ALL = filterKey(undefined, undefined);

/** The four browses a document belongs to: all, its category, its type, both. */
function filtersOf(category: string, type: string): Filter[] {
  return [{}, { category }, { type }, { category, type }];
}
