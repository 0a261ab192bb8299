/** The catalog search cache's counters, read from catalog-service's /metrics (docs/search.md "Search cache"). */
export interface CacheCounts {
  hits: number;
  misses: number;
  bypassed: number;
}

export async function searchCacheCounts(catalogUrl: string): Promise<CacheCounts> {
  const text = await (await fetch(`${catalogUrl}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^skills_search_cache_${name}_total(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { hits: read('hits'), misses: read('misses'), bypassed: read('bypassed') };
}

/** Share of the searches between two readings that the cache answered. */
export function hitRate(before: CacheCounts, after: CacheCounts): number {
  const hits = after.hits - before.hits;
  const total = hits + after.misses - before.misses + after.bypassed - before.bypassed;
  return total === 0 ? 0 : hits / total;
}
