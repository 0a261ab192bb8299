/** Facet counts of the memory index: per category or type code, ranked and capped like `total`. */
import { FACET_VALUES_MAX, type FacetField, type Facets, type FacetValue } from '../search-engine';
import type { DocumentStore } from './document-store';

/**
 * Counts per category × type pair (DocumentStore.pairCodes), summed per
 * value when the facets are read: a broad word's hundreds of thousands of
 * matches cost one array increment each, for both fields at once.
 */
export class FacetCounter {
  /** matches by pair code */
  readonly counts: Int32Array;

  constructor(
    private readonly store: DocumentStore,
    private readonly fields: readonly FacetField[],
  ) {
    this.counts = new Int32Array(store.pairCategories.length);
  }

  /** Counts each match (each once). */
  addAll(docs: readonly number[]): void {
    const { pairCodes } = this.store;
    for (const doc of docs) this.counts[pairCodes[doc]!]!++;
  }

  facets(): Facets {
    const facets: Facets = {};
    for (const field of this.fields) {
      const codes = field === 'category' ? this.store.pairCategories : this.store.pairTypes;
      const counts = new Map<string, number>();
      this.counts.forEach((count, pair) => {
        if (count === 0) return;
        const value = this.store.valueOfCode(codes[pair]!);
        counts.set(value, (counts.get(value) ?? 0) + count);
      });
      facets[field] = rankFacetValues(counts, this.store.options.countCap);
    }
    return facets;
  }
}

export function countFacets(store: DocumentStore, fields: readonly FacetField[], docs: readonly number[]): Facets {
  const counter = new FacetCounter(store, fields);
  counter.addAll(docs);
  return counter.facets();
}

/** Most frequent first, then by value; at most FACET_VALUES_MAX values, each count capped at `cap`, like `total`. */
export function rankFacetValues(counts: Map<string, number>, cap: number): FacetValue[] {
  return [...counts]
    .sort(([va, a], [vb, b]) => b - a || (va < vb ? -1 : va > vb ? 1 : 0))
    .slice(0, FACET_VALUES_MAX)
    .map(([value, count]) => ({ value, count: Math.min(count, cap) }));
}

export function emptyFacets(fields: readonly FacetField[]): Facets {
  return Object.fromEntries(fields.map((field) => [field, []]));
}
