/** Facet counts of the memory index: per category or type code, ranked and capped like `total`. */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { FACET_VALUES_MAX, type FacetField, type Facets, type FacetValue } from '../search-engine';
import type { DocumentStore } from './document-store';

/**
 * Counts per value, one array per field indexed by code: a broad word's
 * hundreds of thousands of matches are counted without a map lookup, or an
 * array of them, each.
 */
export class FacetCounter {
  private readonly codes: Int32Array[];
  private readonly counts: Int32Array[];

  constructor(
    private readonly store: DocumentStore,
    private readonly fields: readonly FacetField[],
  ) {
    this.codes = fields.map((field) => (field === 'category' ? store.categoryCodes : store.typeCodes));
    this.counts = fields.map(() => new Int32Array(store.codeCount));
  }

  /** Counts one match (each match once). */
  add(doc: number): void {
    for (let f = 0; f < this.codes.length; f++) this.counts[f]![this.codes[f]![doc]!]!++;
  }

  facets(): Facets {
    const facets: Facets = {};
    this.fields.forEach((field, f) => {
      const counts = new Map<string, number>();
      this.counts[f]!.forEach((count, code) => {
        if (count > 0) counts.set(this.store.valueOfCode(code), count);
      });
      facets[field] = rankFacetValues(counts);
    });
    return facets;
  }
}

export function countFacets(store: DocumentStore, fields: readonly FacetField[], docs: readonly number[]): Facets {
  const counter = new FacetCounter(store, fields);
  for (const doc of docs) counter.add(doc);
  return counter.facets();
}

/** Most frequent first, then by value; at most FACET_VALUES_MAX values, each count capped like `total`. */
export function rankFacetValues(counts: Map<string, number>): FacetValue[] {
  return [...counts]
    .sort(([va, a], [vb, b]) => b - a || (va < vb ? -1 : va > vb ? 1 : 0))
    .slice(0, FACET_VALUES_MAX)
    .map(([value, count]) => ({ value, count: Math.min(count, MAX_RESULT_WINDOW) }));
}

export function emptyFacets(fields: readonly FacetField[]): Facets {
  return Object.fromEntries(fields.map((field) => [field, []]));
}
