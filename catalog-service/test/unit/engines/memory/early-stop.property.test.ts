/**
 * The early stops against the exhaustive reference, on small catalogs of
 * repeated words (as Tantivy checks block_wand against a full union): with
 * thresholds small enough that a few dozen items cross every one of them,
 * every page and count of every query is the one reading every match gives.
 */
import fc from 'fast-check';
import { NO_DETAILS, type CatalogItemState } from '@skills/common';
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import { matchQuery } from '../../../../src/engines/memory/query-matcher';
import { TYPO_FALLBACK_BELOW, type SearchQuery } from '../../../../src/engines/search-engine';
import { SMALL_THRESHOLDS } from '../../../support/engines/memory/small-thresholds';

const WORDS = [
  'widget',
  'widgets',
  'widths',
  'wide',
  'gadget',
  'gadgets',
  'for',
  'the',
  'kit',
  'form',
  'forms',
  'result',
  'results',
];
const QUERIES = [
  'wid',
  'widget',
  'widgets',
  'wdiget',
  'widgte',
  'gad',
  'gadget',
  'for wid',
  'the widget',
  'widget gadget',
  'gadget wid',
  'form results',
  'results form',
  'widget kit',
  'kit',
];
const PAGES = [
  [2, 1],
  [5, 1],
  [2, 3],
  [5, 4],
] as const;

const words = (max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: max }).map((w) => w.join(' '));
const item = fc.record({
  name: words(3),
  description: fc.oneof(fc.constant(''), words(6), words(16)),
  category: fc.constantFrom('alpha', 'beta'),
  type: fc.constantFrom('skill' as const, 'plugin' as const),
  tags: fc.subarray(['red', 'blue']),
  downloads: fc.constantFrom(0, 10, 1_000, 100_000),
});
type Item = typeof item extends fc.Arbitrary<infer T> ? T : never;

function stateOf(fields: Item, i: number, version = 1): CatalogItemState {
  const { downloads, ...rest } = fields;
  return {
    ...rest,
    id: `item-${String(i).padStart(4, '0')}`,
    slug: `slug-${i}`,
    status: 'active',
    visibility: 'public',
    // many equal times: ties are broken by id
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 5)).toISOString(),
    version,
    details: { ...NO_DETAILS, downloads },
  };
}

function expectReferencePages(sut: MemoryIndex, query: Omit<SearchQuery, 'page' | 'limit'>): void {
  const all = matchQuery(sut.store, { ...query, page: 1, limit: 1 }, TYPO_FALLBACK_BELOW, true);
  const ranked = [...all.docs]
    .sort((a, b) => all.scores[b]! - all.scores[a]! || sut.store.compareNewest(a, b))
    .map((d) => sut.store.item(d).id);
  for (const [limit, page] of PAGES) {
    const found = sut.search({ ...query, limit, page });
    expect(found.items.map((i) => i.id)).toEqual(ranked.slice((page - 1) * limit, page * limit));
    expect(found.total).toBe(Math.min(all.docs.length, SMALL_THRESHOLDS.countCap));
  }
}

describe('MemoryIndex early stops', () => {
  it('give the pages and counts of reading every match, on small catalogs past every threshold', () => {
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 30, maxLength: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.option(item, { nil: undefined })), { maxLength: 20 }),
        fc.boolean(),
        fc.constantFrom(...QUERIES),
        fc.record({
          category: fc.option(fc.constant('alpha'), { nil: undefined }),
          tags: fc.option(fc.constant<string[]>(['red']), { nil: undefined }),
        }),
        (items, changes, settle, q, filters) => {
          const sut = new MemoryIndex(SMALL_THRESHOLDS);
          sut.apply(items.map((fields, i) => stateOf(fields, i)));
          if (settle) sut.settle();
          // updates (a new state) and deletions (none given) of items already held
          const later = changes.map(([at, fields]) => {
            const i = at % items.length;
            return fields ? stateOf(fields, i, 2) : { ...stateOf(items[i]!, i, 2), status: 'deleted' as const };
          });
          sut.apply(later);
          expectReferencePages(sut, { q, sort: 'relevance', ...filters });
        },
      ),
      { numRuns: 300 },
    );
  });
});
