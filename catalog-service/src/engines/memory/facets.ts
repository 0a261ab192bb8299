/** Facet counts of the memory index: per category or type code, ranked and capped like `total`. */
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { FACET_VALUES_MAX, type FacetField, type Facets, type FacetValue } from '../search-engine';
import type { DocumentStore } from './document-store';

/**
 * Counts per value of every match (`docs` holds each match once): one array
 * indexed by code, a broad word's tens of thousands of matches counted
 * without a map lookup each.
 */
export function countFacets(store: DocumentStore, fields: readonly FacetField[], docs: readonly number[]): Facets {
  const facets: Facets = {};
  const byCode = new Int32Array(store.codeCount);
  for (const field of fields) {
    const codes = field === 'category' ? store.categoryCodes : store.typeCodes;
    byCode.fill(0);
    for (const doc of docs) byCode[codes[doc]!]!++;
    const counts = new Map<string, number>();
    byCode.forEach((count, code) => {
      if (count > 0) counts.set(store.valueOfCode(code), count);
    });
    facets[field] = rankFacetValues(counts);
  }
  return facets;
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
