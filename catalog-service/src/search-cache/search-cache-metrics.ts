import { Counter, Gauge, type ServiceMetrics } from '@skills/common';
import type { CachingSearchEngine, SearchCacheObserver } from './caching-search-engine';

/** Hit, miss and bypass counters of the search cache, and its size at scrape time. */
export function registerSearchCacheMetrics(
  metrics: ServiceMetrics,
  cache: () => CachingSearchEngine | undefined,
): SearchCacheObserver {
  const { registry } = metrics;
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const hits = counter(
    'skills_search_cache_hits_total',
    'Searches answered from the search cache (or joined to an identical search in flight)',
  );
  const misses = counter(
    'skills_search_cache_misses_total',
    'Searches the engine answered and the search cache stored',
  );
  const bypasses = counter(
    'skills_search_cache_bypassed_total',
    'Searches the engine answered because the index generation was not known to be current (poll failing)',
  );
  new Gauge({
    name: 'skills_search_cache_entries',
    help: 'Answers held in the search cache',
    registers: [registry],
    collect() {
      this.set(cache()?.size ?? 0);
    },
  });
  return { hit: () => hits.inc(), miss: () => misses.inc(), bypass: () => bypasses.inc() };
}
