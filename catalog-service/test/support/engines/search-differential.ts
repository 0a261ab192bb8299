/**
 * The differential check of two engines: one generated catalog applied to
 * both, the bench's long-tail queries (bench/src/query-mix.ts: one word, two
 * words, prefix, typo, filtered, browse; facets on one in five) asked of
 * both. Each engine ranks by its own model, so the first pages are compared
 * as a report (top-10 overlap); what matches is the shared behaviour, so
 * totals of queries answered as typed must agree.
 */
import type { CatalogItemState } from '@skills/common';
import { generatedCatalog, rng } from '../../../../bench/src/catalog-generator';
import { longTailMix } from '../../../../bench/src/query-mix';
import { toSearchQuery, type SearchParams } from '../../../src/domain/search-request';
import { MemoryIndex } from '../../../src/engines/memory/memory-index';
import { TYPO_FALLBACK_BELOW, type SearchEngine, type SearchQuery } from '../../../src/engines/search-engine';

/** The generated catalog as item states, with a spread of download counts (popularity takes part in ranking). */
export function differentialCorpus(items: number): CatalogItemState[] {
  const next = rng(20_261_125);
  const start = Date.parse('2026-01-01T00:00:00Z');
  return generatedCatalog(items).map((line, i) => ({
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    slug: line.slug,
    name: line.name,
    description: line.description,
    type: line.type,
    category: line.category,
    tags: line.tags,
    status: line.status,
    visibility: 'public',
    // a few share a timestamp, so ties fall through to the id
    updatedAt: new Date(start + Math.floor(i / 3) * 60_000).toISOString(),
    version: 1,
    details: {
      publisher: null,
      version: null,
      license: null,
      repositoryUrl: null,
      homepageUrl: null,
      downloads: Math.floor(10 ** (next() * 7)) - 1,
    },
  }));
}

/** `count` queries of the long-tail mix over the corpus, as validated SearchQuery objects. */
export function differentialQueries(corpus: readonly CatalogItemState[], count: number, seed = 19): SearchQuery[] {
  const lines = corpus.map((item) => ({
    ...item,
    slug: item.slug ?? '',
    category: item.category ?? '',
    status: 'active' as const,
  }));
  const next = longTailMix(lines, seed);
  return Array.from({ length: count }, () => {
    const params = new URL(next().path, 'http://x').searchParams;
    const raw: SearchParams = {
      q: params.get('q') ?? undefined,
      category: params.get('category') ?? undefined,
      type: (params.get('type') as SearchParams['type']) ?? undefined,
      facets: params.get('facets') ? (params.get('facets')!.split(',') as SearchParams['facets']) : undefined,
      page: Number(params.get('page') ?? 1),
      limit: Number(params.get('limit') ?? 20),
    };
    return toSearchQuery(raw, { showsUnscanned: true });
  });
}

/**
 * Queries of three to five words an item says (some typed with a swap), the
 * cases where word scores are summed more than once.
 */
export function manyWordQueries(corpus: readonly CatalogItemState[], count: number, seed = 23): SearchQuery[] {
  const next = rng(seed);
  return Array.from({ length: count }, () => {
    const item = corpus[Math.floor(next() * corpus.length)]!;
    const words = [...new Set(`${item.name} ${item.description}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    const take = 3 + Math.floor(next() * 3);
    const start = Math.floor(next() * Math.max(1, words.length - take));
    const q = words.slice(start, start + take).join(' ');
    return { q, page: 1, limit: 10, sort: 'relevance' as const };
  });
}

/** Loads the corpus into both engines and returns the queries whose answers differ, with both answers. */
export type Searchable = Pick<SearchEngine, 'search' | 'apply'>;

/** The memory index as the reference: the engine every documented behaviour is defined by. */
export function memoryReference(): Searchable {
  const index = new MemoryIndex();
  return {
    search: async (query) => index.search(query),
    apply: async (states) => ({ applied: index.apply(states), stale: 0 }),
  };
}

/** How two engines answered the same queries. */
export interface Comparison {
  queries: number;
  /** mean share of the reference's top 10 that the other engine also lists in its top 10 */
  topTenOverlap: number;
  /** queries both engines answer as typed (no typo run) whose totals differ: they disagree on what matches */
  matchDisagreements: Array<{ q: string | undefined; reference: number; other: number }>;
}

/**
 * Loads the corpus into both engines and compares their answers. Ranks may
 * differ (each engine is judged on its own by the quality harness): the
 * overlap is a report. What matches may not: where both find at least
 * TYPO_FALLBACK_BELOW as typed, both count the same items.
 */
export async function compareEngines(
  reference: Searchable,
  other: Searchable,
  corpus: CatalogItemState[],
  queries: readonly SearchQuery[],
): Promise<Comparison> {
  for (let i = 0; i < corpus.length; i += 500) {
    const batch = corpus.slice(i, i + 500);
    await reference.apply(batch);
    await other.apply(batch);
  }
  let overlap = 0;
  const matchDisagreements: Comparison['matchDisagreements'] = [];
  for (const query of queries) {
    const [a, b] = [await reference.search(query), await other.search(query)];
    const top = new Set(b.items.slice(0, 10).map((i) => i.id));
    const expected = a.items.slice(0, 10);
    overlap +=
      expected.length === 0
        ? b.items.length === 0
          ? 1
          : 0
        : expected.filter((i) => top.has(i.id)).length / expected.length;
    if (a.total >= TYPO_FALLBACK_BELOW && b.total >= TYPO_FALLBACK_BELOW && a.total !== b.total)
      matchDisagreements.push({ q: query.q, reference: a.total, other: b.total });
  }
  return { queries: queries.length, topTenOverlap: overlap / Math.max(1, queries.length), matchDisagreements };
}
