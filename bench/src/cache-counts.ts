/**
 * The counters of the two search caches: catalog-service's (docs/search.md
 * "Search cache") and the gateway's answer cache (docs/gateway.md "Answer cache").
 */
export interface CacheCounts {
  hits: number;
  misses: number;
  bypassed: number;
}

export async function searchCacheCounts(catalogUrl: string): Promise<CacheCounts> {
  const text = await (await fetch(`${catalogUrl}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^skills_search_cache_${name}_total(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { hits: read('hits'), misses: read('misses'), bypassed: read('bypassed') };
}

/** The gateway answer cache's counters, from the gateway's /metrics (no bypass there: a miss asks catalog-service). */
export async function answerCacheCounts(gatewayUrl: string): Promise<CacheCounts> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const read = (result: string) =>
    Number(
      new RegExp(`^skills_answer_cache_lookups_total\\{result="${result}"[^}]*\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0,
    );
  return { hits: read('hit'), misses: read('miss'), bypassed: 0 };
}

/** Share of the searches between two readings that the cache answered. */
export function hitRate(before: CacheCounts, after: CacheCounts): number {
  const hits = after.hits - before.hits;
  const total = hits + after.misses - before.misses + after.bypassed - before.bypassed;
  return total === 0 ? 0 : hits / total;
}
