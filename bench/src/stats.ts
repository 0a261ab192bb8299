/** Pure helpers of the report: percentiles, ratios and the printed table. */

export interface LoadResult {
  /** scenario name, e.g. "search via gateway" */
  scenario: string;
  connections: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** connection errors, timeouts and non-2xx answers */
  errors: number;
  requests: number;
  /** search phases: share of the searches (warm-up included) catalog-service's search cache answered */
  searchCacheHitRate?: number;
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
  /** items per second until the search read model held every item */
  indexPerSec: number;
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

/** The one table the bench prints; the same rows go into the JSON. */
export function formatTable(results: readonly LoadResult[]): string {
  const header = ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs baseline'];
  const rows = results.map((r) => {
    const ratio = ratioToBaseline(r, results);
    return [
      r.scenario,
      String(r.connections),
      fmt(r.requestsPerSec),
      fmt(r.p50Ms, 1),
      fmt(r.p99Ms, 1),
      String(r.errors),
      ratio === undefined ? '–' : `${(ratio * 100).toFixed(1)} %`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export interface Target {
  name: string;
  measured: string;
  ok: boolean;
}

/** The targets, checked against one run (at 64 connections). */
export function checkTargets(results: readonly LoadResult[], lag: LagResult | undefined, imp: ImportResult | undefined): Target[] {
  const at = (scenario: string) => results.find((r) => r.scenario === scenario && r.connections === 64);
  const gw = at('search via gateway');
  const direct = at('search direct');
  const base = at('baseline');
  const targets: Target[] = [];
  if (gw && base) {
    const ratio = gw.requestsPerSec / base.requestsPerSec;
    targets.push({ name: 'gateway search ≥ 25 % of baseline req/s', measured: `${(ratio * 100).toFixed(1)} %`, ok: ratio >= 0.25 });
    targets.push({ name: 'gateway search errors = 0', measured: String(gw.errors), ok: gw.errors === 0 });
    targets.push({ name: 'gateway search p99 ≤ 50 ms', measured: `${fmt(gw.p99Ms, 1)} ms`, ok: gw.p99Ms <= 50 });
  }
  if (gw && direct) {
    const ratio = gw.requestsPerSec / direct.requestsPerSec;
    targets.push({ name: 'gateway search ≥ 70 % of direct req/s', measured: `${(ratio * 100).toFixed(1)} %`, ok: ratio >= 0.7 });
  }
  if (lag) targets.push({ name: 'index lag p99 ≤ 250 ms', measured: `${fmt(lag.p99Ms, 1)} ms`, ok: lag.p99Ms <= 250 });
  if (imp) targets.push({ name: 'import ≥ 10,000 items/s', measured: `${fmt(imp.recordPerSec)} /s`, ok: imp.recordPerSec >= 10_000 });
  return targets;
}
