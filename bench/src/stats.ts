/** Pure helpers of the report: percentiles, ratios, the printed table and the targets. */
import type { ClassLatency } from './class-stats';

export interface LoadResult {
  /** scenario name, e.g. "search via gateway" */
  scenario: string;
  connections: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** connection errors (timeouts among them) and non-2xx answers */
  errors: number;
  /** the non-2xx answers by status code, when there were any */
  errorStatuses?: Record<string, number>;
  /** connection errors and timeouts alone: requests that got no answer */
  noAnswer: number;
  /** of those, requests still unanswered after the client's 10 s timeout */
  timeouts?: number;
  requests: number;
  /** search phases: whether the caches were on (off: SEARCH_CACHE_ENTRIES=0 in catalog-service, ANSWER_CACHE_TTL_MS=0 in the gateway) */
  searchCache?: 'on' | 'off';
  /** search phases with the cache on: share of the searches (warm-up included) the cache answered */
  searchCacheHitRate?: number;
  /** search phases via the gateway with the cache on: share the gateway's answer cache answered (before catalog-service) */
  answerCacheHitRate?: number;
  /** phases whose requests carry a class (the search mixes): latency per class */
  classes?: ClassLatency[];
  /** the machine's 1-minute load average when the run ended (the Elasticsearch mode records it) */
  loadAverage?: number;
  /** CPU milliseconds per request of each process (the Elasticsearch mode: cpu-accounting.ts) */
  cpuMsPerRequest?: Record<string, number>;
}

export interface LagResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ImportResult {
  items: number;
  /** items per second into the system of record (import requests) */
  recordPerSec: number;
  /** items per second from the first import request until every active item was searchable */
  indexPerSec: number;
  /** active items of the import: what search must hold */
  activeItems: number;
  /** seconds from the last import response until every active item was searchable */
  searchableAfterImportSec: number;
  /** how "searchable" was read: catalog-service's skills_search_index_documents gauge, rows of catalog.search_items, or Elasticsearch's _count of the alias */
  indexSource: 'metric' | 'database' | 'elasticsearch';
  /** seconds from the last import response until every active item had its vector (when the run waited for it) */
  meaningAfterImportSec?: number;
}

/** Nearest-rank percentile of `values` (0 < p ≤ 100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function lagOf(samples: readonly number[]): LagResult {
  return {
    samples: samples.length,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    maxMs: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/** req/s of `r` as a fraction of the baseline at the same connection count. */
export function ratioToBaseline(r: LoadResult, all: readonly LoadResult[], baseline = 'baseline'): number | undefined {
  const base = all.find((b) => b.scenario === baseline && b.connections === r.connections);
  if (!base || base.requestsPerSec === 0) return undefined;
  return r.requestsPerSec / base.requestsPerSec;
}

const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

const percent = (rate: number | undefined): string => (rate === undefined ? '–' : `${(rate * 100).toFixed(1)} %`);

/** "off", catalog-service's cache hit rate, or "–" for a phase that does not search. */
export function cacheCell(r: LoadResult): string {
  return r.searchCache === 'off' ? 'off' : percent(r.searchCacheHitRate);
}

/** "off", the gateway answer cache's hit rate, or "–" for a phase that does not search through it. */
export function answerCacheCell(r: LoadResult): string {
  return r.searchCache === 'off' ? 'off' : percent(r.answerCacheHitRate);
}

/** The main table the bench prints; the same rows go into the JSON. `baseline`: the scenario of the ratio column. */
export function formatTable(results: readonly LoadResult[], baseline: string = SCENARIOS.baseline): string {
  const header = [
    'scenario',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'vs baseline',
    'gateway cache',
    'catalog cache',
  ];
  const rows = results.map((r) => {
    const ratio = ratioToBaseline(r, results, baseline);
    return [
      r.scenario,
      String(r.connections),
      fmt(r.requestsPerSec),
      fmt(r.p50Ms, 1),
      fmt(r.p99Ms, 1),
      String(r.errors),
      ratio === undefined ? '–' : `${(ratio * 100).toFixed(1)} %`,
      answerCacheCell(r),
      cacheCell(r),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export interface Target {
  name: string;
  measured: string;
  ok: boolean;
}

export const SCENARIOS = {
  baseline: 'baseline',
  longTailDirect: 'search long tail direct',
  longTailGateway: 'search long tail via gateway',
  /** the same mix with mode=lexical on every request: the long tail's cost without the model, for comparison */
  longTailLexicalGateway: 'search long tail via gateway, words only',
  intentGateway: 'search intent mix via gateway',
  repeatedGateway: 'search repeated via gateway',
} as const;

/** A search scenario's name in a run with the cache off. */
export const cacheOff = (scenario: string): string => `${scenario} (cache off)`;

export interface TargetOptions {
  /** `--vocabulary broad`: every word matches ≈ 15 % of the catalog, so the p99 budget is wider */
  broad: boolean;
  /** catalog size: from 1,000,000 items the throughput target is 300 req/s and the footprint is checked */
  items?: number;
  /** catalog-service's footprint: resident memory after the search runs, restart until ready */
  catalogService?: CatalogFootprint;
  /** the changes feed read by one client through the gateway */
  feed?: { itemsPerSec: number };
}

export interface CatalogFootprint {
  rssBytes?: number;
  readySec?: number;
}

/** The catalog size from which the 1M targets apply. */
const LARGE_CATALOG = 1_000_000;

/**
 * The targets ("Search at catalog scale: every query fast at 100k
 * items"), at 64 connections. The long tail is checked with the cache on and
 * off: the cache-off run is the honest one, since a long tail barely repeats.
 */
export function checkTargets(
  results: readonly LoadResult[],
  lag: LagResult | undefined,
  imp: ImportResult | undefined,
  options: TargetOptions = { broad: false },
): Target[] {
  const at = (scenario: string) => results.find((r) => r.scenario === scenario && r.connections === 64);
  const targets: Target[] = [];
  const p99Budget = options.broad ? 150 : 100;
  const large = (options.items ?? 0) >= LARGE_CATALOG;
  const minRate = large ? 300 : 1_000;
  for (const scenario of [SCENARIOS.longTailGateway, cacheOff(SCENARIOS.longTailGateway)]) {
    const r = at(scenario);
    if (!r) continue;
    targets.push({
      name: `${scenario} ≥ ${minRate.toLocaleString('en')} req/s`,
      measured: `${fmt(r.requestsPerSec)} req/s`,
      ok: r.requestsPerSec >= minRate,
    });
    targets.push({
      name: `${scenario} p99 ≤ ${p99Budget} ms`,
      measured: `${fmt(r.p99Ms, 1)} ms`,
      ok: r.p99Ms <= p99Budget,
    });
    targets.push({ name: `${scenario} errors = 0`, measured: String(r.errors), ok: r.errors === 0 });
  }
  // the cached best case: the cache-on run when there is one
  const repeated = at(SCENARIOS.repeatedGateway) ?? at(cacheOff(SCENARIOS.repeatedGateway));
  const base = at(SCENARIOS.baseline);
  if (repeated && base && base.requestsPerSec > 0) {
    const ratio = repeated.requestsPerSec / base.requestsPerSec;
    targets.push({
      name: `${repeated.scenario} ≥ 15 % of baseline req/s`,
      measured: `${(ratio * 100).toFixed(1)} %`,
      ok: ratio >= 0.15,
    });
  }
  if (imp) {
    targets.push({
      name: 'all searchable ≤ 10 s after the import answered',
      measured: `${fmt(imp.searchableAfterImportSec, 1)} s`,
      ok: imp.searchableAfterImportSec <= 10,
    });
  }
  if (lag) targets.push({ name: 'index lag p99 ≤ 250 ms', measured: `${fmt(lag.p99Ms, 1)} ms`, ok: lag.p99Ms <= 250 });
  if (imp)
    targets.push({
      name: 'import ≥ 10,000 items/s',
      measured: `${fmt(imp.recordPerSec)} /s`,
      ok: imp.recordPerSec >= 10_000,
    });
  if (options.feed) {
    const rate = options.feed.itemsPerSec;
    targets.push({
      name: 'changes feed ≥ 2,000 items/s (one client via gateway)',
      measured: `${fmt(rate)} items/s`,
      ok: rate >= 2_000,
    });
  }
  const footprint = options.catalogService;
  if (large && footprint?.rssBytes !== undefined) {
    const gb = footprint.rssBytes / 1024 ** 3;
    targets.push({ name: 'catalog-service RSS ≤ 1.5 GB', measured: `${gb.toFixed(2)} GB`, ok: gb <= 1.5 });
  }
  if (large && footprint?.readySec !== undefined) {
    targets.push({
      name: 'catalog-service start-up to ready ≤ 60 s',
      measured: `${fmt(footprint.readySec, 1)} s`,
      ok: footprint.readySec <= 60,
    });
  }
  return targets;
}
