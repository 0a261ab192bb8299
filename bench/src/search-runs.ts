/**
 * The search phases of one run, with catalog-service's search cache on or
 * off: the long tail direct and via the gateway, then a few fixed queries
 * repeated (the cache's best case). Switching the cache restarts only
 * catalog-service, on the same port, so the gateway keeps its CATALOG_URL.
 */
import { hitRate, searchCacheCounts } from './cache-counts';
import type { ImportLine } from './import-line';
import { indexDocuments } from './index-documents';
import { runLoad, type Phase, type RunPart } from './load';
import { cycledSearches, searchDirectPhase, searchGatewayPhase, type SearchSource } from './phases';
import { restartCatalog, type Stack } from './processes';
import { longTailMix, repeatedRequests, seedOf } from './query-mix';
import { waitIndexLoaded, type BenchUser } from './setup';
import { cacheOff, SCENARIOS, type LoadResult } from './stats';

export type CacheState = 'on' | 'off';

export interface SearchRunContext {
  stack: Stack;
  users: readonly BenchUser[];
  catalog: readonly ImportLine[];
  connections: readonly number[];
  durationSec: number;
  warmupSec: number;
  progress(text: string, done: boolean): void;
  phaseTitle(name: string): void;
}

/** catalog-service's environment for a cache state: off is SEARCH_CACHE_ENTRIES=0, on is its defaults */
export const CACHE_ENV: Record<CacheState, Record<string, string>> = { on: {}, off: { SEARCH_CACHE_ENTRIES: '0' } };

/**
 * Restarts catalog-service with the cache `state`, then waits until it answers /readyz and its index is loaded
 * again; returns the seconds that took (a replica's start-up to ready on this catalog).
 */
export async function switchSearchCache(stack: Stack, state: CacheState, progress: (text: string, done: boolean) => void): Promise<number> {
  const documents = await indexDocuments(stack.catalog.url);
  const started = performance.now();
  progress(`restarting catalog-service with the search cache ${state}`, false);
  await restartCatalog(stack, CACHE_ENV[state]);
  await waitIndexLoaded(stack.catalog.url, documents, progress);
  const seconds = (performance.now() - started) / 1000;
  progress(`catalog-service restarted with the search cache ${state}: ready in ${seconds.toFixed(1)} s`, true);
  return seconds;
}

export async function runSearchPhases(ctx: SearchRunContext, cache: CacheState): Promise<LoadResult[]> {
  const { stack, users, catalog } = ctx;
  const repeated = repeatedRequests(catalog);
  // The same seed with the cache on and off: both runs send the same queries. Each part (warm-up, run)
  // and connection count draws its own, so a run does not start on what its warm-up just cached.
  const longTail = (scenario: string, connections: number, part: RunPart): SearchSource =>
    longTailMix(catalog, seedOf(`${scenario}|${connections}|${part}`));
  const name = (scenario: string): string => (cache === 'off' ? cacheOff(scenario) : scenario);
  const phases: Array<[string, (connections: number, part: RunPart) => Phase]> = [
    [SCENARIOS.longTailDirect, (c, part) => searchDirectPhase(name(SCENARIOS.longTailDirect), stack.catalog.url, stack.principalSecret, users, longTail(SCENARIOS.longTailDirect, c, part))],
    [SCENARIOS.longTailGateway, (c, part) => searchGatewayPhase(name(SCENARIOS.longTailGateway), stack.gateway.url, users, longTail(SCENARIOS.longTailGateway, c, part))],
    [SCENARIOS.repeatedGateway, () => searchGatewayPhase(name(SCENARIOS.repeatedGateway), stack.gateway.url, users, cycledSearches(repeated))],
  ];
  const results: LoadResult[] = [];
  for (const [scenario, make] of phases) {
    ctx.phaseTitle(name(scenario));
    for (const c of ctx.connections) {
      const before = cache === 'on' ? await searchCacheCounts(stack.catalog.url) : undefined;
      const result = await runLoad((part) => make(c, part), { connections: c, durationSec: ctx.durationSec, warmupSec: ctx.warmupSec, progress: ctx.progress });
      result.searchCache = cache;
      if (before) {
        result.searchCacheHitRate = hitRate(before, await searchCacheCounts(stack.catalog.url));
        ctx.progress(`${name(scenario)}, ${c} connections: search cache hit rate ${(result.searchCacheHitRate * 100).toFixed(1)} %`, true);
      }
      results.push(result);
    }
  }
  return results;
}
