/**
 * The differential check of two engines: one generated catalog applied to
 * both, the bench's long-tail queries (bench/src/query-mix.ts: one word, two
 * words, prefix, typo, filtered, browse; facets on one in five) asked of
 * both, and every answer compared whole: the page's items in order, the
 * total, the facets and the suggestion. Ties are broken the same way by both
 * engines (newest, then id), so equal scores still give one order; the
 * documented differences (docs/elasticsearch.md "Differences") do not occur
 * in a catalog of this size.
 */
import type { CatalogItemState } from '@skills/common';
import { generatedCatalog, rng } from '../../../bench/src/catalog-generator';
import { longTailMix } from '../../../bench/src/query-mix';
import { toSearchQuery, type SearchParams } from '../../src/domain/search-request';
import { MemoryIndex } from '../../src/engines/memory/memory-index';
import type { SearchEngine, SearchQuery, SearchResult } from '../../src/engines/search-engine';

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
    details: { publisher: null, version: null, license: null, repositoryUrl: null, homepageUrl: null, downloads: Math.floor(10 ** (next() * 7)) - 1 },
  }));
}

/** `count` queries of the long-tail mix over the corpus, as validated SearchQuery objects. */
export function differentialQueries(corpus: readonly CatalogItemState[], count: number, seed = 19): SearchQuery[] {
  const lines = corpus.map((item) => ({ ...item, slug: item.slug ?? '', category: item.category ?? '', status: 'active' as const }));
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
    return toSearchQuery(raw);
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

/** What a user sees of an answer: the page in order, the total, facets and suggestion. */
export function visible(result: SearchResult): unknown {
  return { ids: result.items.map((i) => i.id), total: result.total, facets: result.facets, suggestion: result.suggestion };
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

export async function differences(
  reference: Searchable,
  other: Searchable,
  corpus: CatalogItemState[],
  queries: readonly SearchQuery[],
): Promise<Array<{ query: SearchQuery; reference: unknown; other: unknown }>> {
  for (let i = 0; i < corpus.length; i += 500) {
    const batch = corpus.slice(i, i + 500);
    await reference.apply(batch);
    await other.apply(batch);
  }
  const found = [];
  for (const query of queries) {
    const [a, b] = [visible(await reference.search(query)), visible(await other.search(query))];
    if (JSON.stringify(a) !== JSON.stringify(b)) found.push({ query, reference: a, other: b });
  }
  return found;
}
