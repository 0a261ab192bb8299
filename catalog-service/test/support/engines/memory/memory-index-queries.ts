/**
 * What the MemoryIndex suites share: a query with the defaults of the API, an
 * index whose thresholds a few dozen items cross, and the reference an early
 * stopping search must give the pages of.
 */
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import { matchQuery } from '../../../../src/engines/memory/query-matcher';
import { TYPO_FALLBACK_BELOW, type SearchQuery } from '../../../../src/engines/search-engine';
import { SMALL_THRESHOLDS } from './small-thresholds';

export const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  page: 1,
  limit: 20,
  sort: overrides.q ? 'relevance' : 'newest',
  ...overrides,
});

export const names = (sut: MemoryIndex, q: Partial<SearchQuery>) => sut.search(query(q)).items.map((i) => i.name);

/** An index whose thresholds a few dozen items cross. */
export const smallIndex = () => new MemoryIndex(SMALL_THRESHOLDS);
export const CAP = SMALL_THRESHOLDS.countCap;
export const many = <T>(length: number, make: (i: number) => T): T[] => Array.from({ length }, (_, i) => make(i));

/** The early-stopping search gives the pages of a reference that reads every term and ranks every match (windows up to the cap). */
export function expectPagesAsIfEverythingWasRead(
  sut: MemoryIndex,
  q: string,
  filters: Partial<SearchQuery> = {},
): void {
  const all = matchQuery(sut.store, query({ q, ...filters }), TYPO_FALLBACK_BELOW, true);
  const ranked = [...all.docs].sort((a, b) => all.scores[b]! - all.scores[a]! || sut.store.compareNewest(a, b));
  const reference = ranked.map((d) => sut.store.item(d).id);
  for (const [limit, page] of [
    [2, 1],
    [5, 1],
    [2, 3],
    [5, 4],
  ] as const) {
    const found = sut.search(query({ q, limit, page, ...filters }));
    expect(found.items.map((i) => i.id)).toEqual(reference.slice((page - 1) * limit, page * limit));
    expect(found.total).toBe(Math.min(all.docs.length, CAP));
  }
}
