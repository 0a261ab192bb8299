/**
 * The search phases of one run, with catalog-service's search cache on or
 * off: the long tail direct and via the gateway, then a few fixed queries
 * repeated (the cache's best case). Switching the cache restarts only
 * catalog-service, on the same port, so the gateway keeps its CATALOG_URL.
 */
import { answerCacheCounts, hitRate, searchCacheCounts } from './cache-counts';
import type { ImportLine } from './import-line';
import { indexDocuments } from './catalog-metrics';
import { runMeasuredLoad, type CpuSources } from './cpu-accounting';
import type { Phase, RunPart } from './load';
import { cycledSearches, searchDirectPhase, searchGatewayPhase, type SearchSource } from './phases';
import { restartCatalog, restartGateway, type Stack } from './processes';
import { intentMix, lexicalOnly, longTailMix, repeatedRequests, seedOf } from './query-mix';
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
  /** the processes whose CPU each run reports (processes.ts stackCpuSources) */
  cpuSources(): Promise<CpuSources>;
}

/**
 * The environment of each cache state: off is catalog-service's SEARCH_CACHE_ENTRIES=0 and the gateway's
 * ANSWER_CACHE_TTL_MS=0 (every search reaches the engine), on is their defaults.
 */
export const CACHE_ENV: Record<CacheState, { catalog: Record<string, string>; gateway: Record<string, string> }> = {
  on: { catalog: {}, gateway: {} },
  off: { catalog: { SEARCH_CACHE_ENTRIES: '0' }, gateway: { ANSWER_CACHE_TTL_MS: '0' } },
};

/**
 * Restarts catalog-service and the gateway with the caches `state`, then waits until catalog-service answers
 * /readyz and its index is loaded again; returns the seconds catalog-service took (a replica's start-up to
 * ready on this catalog).
 */
export async function switchSearchCache(
  stack: Stack,
  state: CacheState,
  progress: (text: string, done: boolean) => void,
): Promise<number> {
  const documents = await indexDocuments(stack.catalog.url);
  const started = performance.now();
  progress(`restarting catalog-service with the search cache ${state}`, false);
  await restartCatalog(stack, CACHE_ENV[state].catalog);
  await waitIndexLoaded(stack.catalog.url, documents, progress);
  const seconds = (performance.now() - started) / 1000;
  progress(`catalog-service restarted with the search cache ${state}: ready in ${seconds.toFixed(1)} s`, true);
  await restartGateway(stack, CACHE_ENV[state].gateway);
  progress(`gateway restarted with the answer cache ${state}`, true);
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
    [
      SCENARIOS.longTailDirect,
      (c, part) =>
        searchDirectPhase(
          name(SCENARIOS.longTailDirect),
          stack.catalog.url,
          stack.signer,
          users,
          longTail(SCENARIOS.longTailDirect, c, part),
        ),
    ],
    [
      SCENARIOS.longTailGateway,
      (c, part) =>
        searchGatewayPhase(
          name(SCENARIOS.longTailGateway),
          stack.gateway.url,
          users,
          longTail(SCENARIOS.longTailGateway, c, part),
        ),
    ],
    [
      SCENARIOS.longTailLexicalGateway,
      (c, part) =>
        searchGatewayPhase(
          name(SCENARIOS.longTailLexicalGateway),
          stack.gateway.url,
          users,
          lexicalOnly(longTail(SCENARIOS.longTailGateway, c, part)),
        ),
    ],
    [
      SCENARIOS.intentGateway,
      (c, part) =>
        searchGatewayPhase(
          name(SCENARIOS.intentGateway),
          stack.gateway.url,
          users,
          intentMix(catalog, seedOf(`${SCENARIOS.intentGateway}|${c}|${part}`)),
        ),
    ],
    [
      SCENARIOS.repeatedGateway,
      () => searchGatewayPhase(name(SCENARIOS.repeatedGateway), stack.gateway.url, users, cycledSearches(repeated)),
    ],
  ];
  const results: LoadResult[] = [];
  for (const [scenario, make] of phases) {
    ctx.phaseTitle(name(scenario));
    for (const c of ctx.connections) {
      const viaGateway = scenario !== SCENARIOS.longTailDirect;
      const before = cache === 'on' ? await searchCacheCounts(stack.catalog.url) : undefined;
      const gatewayBefore = cache === 'on' && viaGateway ? await answerCacheCounts(stack.gateway.url) : undefined;
      const options = {
        connections: c,
        durationSec: ctx.durationSec,
        warmupSec: ctx.warmupSec,
        progress: ctx.progress,
      };
      const result = await runMeasuredLoad((part) => make(c, part), options, ctx.cpuSources);
      result.searchCache = cache;
      if (gatewayBefore) result.answerCacheHitRate = hitRate(gatewayBefore, await answerCacheCounts(stack.gateway.url));
      if (before) {
        result.searchCacheHitRate = hitRate(before, await searchCacheCounts(stack.catalog.url));
        const gateway =
          result.answerCacheHitRate === undefined ? '' : `gateway ${(result.answerCacheHitRate * 100).toFixed(1)} %, `;
        ctx.progress(
          `${name(scenario)}, ${c} connections: cache hit rate ${gateway}catalog-service ${(result.searchCacheHitRate * 100).toFixed(1)} %`,
          true,
        );
      }
      results.push(result);
    }
  }
  return results;
}
