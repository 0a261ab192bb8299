/**
 * The memory index's trust filters past every threshold (small-thresholds.ts):
 * the bit-set count of a broad word, the early stop, a browse that skips the
 * classes it refuses, facets, and a rebuilt index, each against a reference
 * that filters the items themselves.
 */
import type { CatalogItemState } from '@skills/common';
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import type { SearchQuery, SearchSort } from '../../../../src/engines/search-engine';
import { itemState } from '../../../support/engines/engine-items';
import { trusted } from '../../../support/engines/search-trust.conformance';
import { SMALL_THRESHOLDS } from '../../../support/engines/memory/small-thresholds';

const CAP = SMALL_THRESHOLDS.countCap;
const VERDICTS = ['clean', 'suspicious', 'unscanned', 'malicious'] as const;

/** 60 items sharing the word "lint", a quarter of each verdict, every third publisher verified, every fifth without trust. */
function corpus(): CatalogItemState[] {
  return Array.from({ length: 60 }, (_, i) =>
    itemState({
      name: `Lint ${i}`,
      description: i % 2 ? 'checks code' : 'formats code',
      ...(i % 5 === 4 ? {} : { trust: trusted(VERDICTS[i % 4]!, i % 3 === 0) }),
    }),
  );
}

/** What a query may show of an item: never a blocked one. */
function shown(state: CatalogItemState, q: Pick<SearchQuery, 'trust' | 'verifiedPublisher'>): boolean {
  const verdict = state.trust?.verdict ?? 'unscanned';
  const verified = state.trust?.publisherVerified ?? false;
  if (verdict === 'malicious') return false;
  return (
    (q.trust === undefined || q.trust.includes(verdict)) &&
    (q.verifiedPublisher === undefined || q.verifiedPublisher === verified)
  );
}

const FILTERS: Array<Pick<SearchQuery, 'trust' | 'verifiedPublisher'>> = [
  { trust: ['clean', 'unscanned'] },
  { trust: ['clean'] },
  { trust: ['suspicious'] },
  { trust: ['clean', 'suspicious', 'unscanned'] },
  { trust: ['clean', 'unscanned'], verifiedPublisher: true },
  { verifiedPublisher: false },
];

describe('MemoryIndex trust filters', () => {
  const items = corpus();
  const fresh = () => {
    const sut = new MemoryIndex(SMALL_THRESHOLDS);
    sut.apply(items);
    sut.settle();
    return sut;
  };

  it.each(FILTERS)(
    'counts, pages and facets %j as a filter over the items themselves, with and without text, in every order',
    (filter) => {
      for (const sut of [fresh(), fresh().rebuilt()]) {
        const expected = items.filter((s) => shown(s, filter));
        for (const q of [undefined, 'lint', 'lint code', 'checks']) {
          const matching = expected.filter(
            (s) => q === undefined || q.split(' ').every((w) => `${s.name} ${s.description}`.toLowerCase().includes(w)),
          );
          const byTrust = new Map<string, number>();
          for (const s of matching)
            byTrust.set(s.trust?.verdict ?? 'unscanned', (byTrust.get(s.trust?.verdict ?? 'unscanned') ?? 0) + 1);
          const sorts: SearchSort[] = q ? ['relevance', 'newest', 'name', 'popular'] : ['newest', 'name', 'popular'];
          for (const sort of sorts) {
            const seen = new Set<string>();
            for (let page = 1; page * 7 <= CAP; page++) {
              const result = sut.search({ q, ...filter, sort, page, limit: 7 });
              expect(result.total).toBe(Math.min(matching.length, CAP));
              for (const item of result.items) seen.add(item.id);
            }
            const reachable = Math.min(matching.length, 7 * Math.floor(CAP / 7));
            expect(seen.size).toBe(reachable);
            for (const id of seen) expect(matching.some((s) => s.id === id)).toBe(true);
          }
          const { facets } = sut.search({
            q,
            ...filter,
            sort: q ? 'relevance' : 'newest',
            page: 1,
            limit: 1,
            facets: ['trust'],
          });
          expect(Object.fromEntries((facets?.trust ?? []).map((v) => [v.value, v.count]))).toEqual(
            Object.fromEntries([...byTrust].map(([v, n]) => [v, Math.min(n, CAP)])),
          );
        }
      }
    },
  );
});
