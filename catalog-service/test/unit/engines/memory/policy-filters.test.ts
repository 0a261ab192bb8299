/**
 * The memory index under a workspace policy's own filters (publishers,
 * licences, denied slugs: SearchQuery.policy) past every threshold
 * (small-thresholds.ts): the bit-set count of a broad word, the early stop,
 * a browse that walks its order, facets, and a rebuilt index, each against
 * a reference that filters the items themselves.
 */
import { NO_DETAILS, type CatalogItemState } from '@skills/common';
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import type { PolicyFilter, SearchSort } from '../../../../src/engines/search-engine';
import { itemState } from '../../../support/engines/engine-items';
import { SMALL_THRESHOLDS } from '../../../support/engines/memory/small-thresholds';

const CAP = SMALL_THRESHOLDS.countCap;
const PUBLISHERS = ['acme', 'other', 'Acme', null] as const;
const LICENSES = ['MIT', 'mit', 'GPL-3.0', 'Apache-2.0', null] as const;

/** 60 items sharing the word "lint", publishers and licences in turn (and in several cases). */
function corpus(): CatalogItemState[] {
  return Array.from({ length: 60 }, (_, i) =>
    itemState({
      name: `Lint ${i}`,
      slug: `lint-${i}`,
      description: i % 2 ? 'checks code' : 'formats code',
      category: i % 3 ? 'quality' : 'style',
      details: { ...NO_DETAILS, publisher: PUBLISHERS[i % 4]!, license: LICENSES[i % 5]!, downloads: i * 7 },
    }),
  );
}

/** What the policy shows of an item, by the rule of docs/governance.md. */
function shown(state: CatalogItemState, policy: PolicyFilter): boolean {
  const { publisher, license } = state.details ?? NO_DETAILS;
  if (policy.deniedSlugs?.includes(state.slug ?? '')) return false;
  if (policy.publishers && (publisher === null || !policy.publishers.includes(publisher))) return false;
  return !policy.licenses || (license !== null && policy.licenses.includes(license.toLowerCase()));
}

const POLICIES: PolicyFilter[] = [
  { publishers: ['acme'] },
  { licenses: ['mit'] },
  { licenses: ['apache-2.0', 'gpl-3.0'] },
  { deniedSlugs: ['lint-0', 'lint-7', 'lint-33', 'lint-58'] },
  { publishers: ['acme', 'other'], licenses: ['mit', 'gpl-3.0'], deniedSlugs: ['lint-1'] },
];

describe('MemoryIndex policy filters', () => {
  const items = corpus();
  const fresh = () => {
    const sut = new MemoryIndex(SMALL_THRESHOLDS);
    sut.apply(items);
    sut.settle();
    return sut;
  };

  it.each(POLICIES)(
    'counts, pages and facets %j as a filter over the items themselves, with and without text, in every order',
    (policy) => {
      for (const sut of [fresh(), fresh().rebuilt()]) {
        const expected = items.filter((s) => shown(s, policy));
        for (const q of [undefined, 'lint', 'lint code', 'checks']) {
          const matching = expected.filter(
            (s) => q === undefined || q.split(' ').every((w) => `${s.name} ${s.description}`.toLowerCase().includes(w)),
          );
          const sorts: SearchSort[] = q ? ['relevance', 'newest', 'name', 'popular'] : ['newest', 'name', 'popular'];
          for (const sort of sorts) {
            const seen = new Set<string>();
            for (let page = 1; page * 7 <= CAP; page++) {
              const result = sut.search({ q, policy, sort, page, limit: 7 });
              expect(result.total).toBe(Math.min(matching.length, CAP));
              for (const item of result.items) seen.add(item.id);
            }
            const reachable = Math.min(matching.length, 7 * Math.floor(CAP / 7));
            expect(seen.size).toBe(reachable);
            for (const id of seen) expect(matching.some((s) => s.id === id)).toBe(true);
          }
          const byCategory = new Map<string, number>();
          for (const s of matching) byCategory.set(s.category ?? '', (byCategory.get(s.category ?? '') ?? 0) + 1);
          const { facets } = sut.search({
            q,
            policy,
            sort: q ? 'relevance' : 'newest',
            page: 1,
            limit: 1,
            facets: ['category'],
          });
          expect(Object.fromEntries((facets?.category ?? []).map((v) => [v.value, v.count]))).toEqual(
            Object.fromEntries([...byCategory].map(([v, n]) => [v, Math.min(n, CAP)])),
          );
        }
      }
    },
  );
});
