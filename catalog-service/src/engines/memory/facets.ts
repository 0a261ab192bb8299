/** Facet counts of the memory index: per category, type or trust, ranked and capped like `total`. */
import { FACET_VALUES_MAX, type FacetField, type Facets, type FacetValue } from '../search-engine';
import type { DocumentStore } from './document-store';
import { verdictOfClass, verifiedOfClass } from './trust-classes';

/**
 * Counts per category × type × trust class (DocumentStore.pairCodes), summed
 * per value when the facets are read: a broad word's hundreds of thousands
 * of matches cost one array increment each, for every field at once.
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
      const counts = new Map<string, number>();
      this.counts.forEach((count, pair) => {
        if (count === 0) return;
        const value = valueOfPair(this.store, field, pair);
        counts.set(value, (counts.get(value) ?? 0) + count);
      });
      facets[field] = rankFacetValues(counts, this.store.options.countCap);
    }
    return facets;
  }
}

/** The value a pair code (DocumentStore.pairCodes) has for a facet field. */
function valueOfPair(store: DocumentStore, field: FacetField, pair: number): string {
  if (field === 'category') return store.valueOfCode(store.pairCategories[pair]!);
  if (field === 'type') return store.valueOfCode(store.pairTypes[pair]!);
  return facetValueOfClass(field, store.pairClasses[pair]!);
}

/** A trust class's value for the `trust` or `verifiedPublisher` facet. */
export function facetValueOfClass(field: 'trust' | 'verifiedPublisher', trustClass: number): string {
  return field === 'trust' ? verdictOfClass(trustClass) : String(verifiedOfClass(trustClass));
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
