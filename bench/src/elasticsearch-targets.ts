/** The Elasticsearch mode's goals (docs/performance.md "Elasticsearch"), judged on one run's results: pure, unit-tested. */
import { ratioToBaseline, type ImportResult, type LoadResult, type Target } from './stats';

/** The scenario name of the bare baseline sent straight to the node. */
export const ES_BASELINE = 'elasticsearch baseline';

export const ES_GOALS = {
  /** the gateway's long tail against the bare baseline's req/s, at the highest connection count */
  minBaselineShare: 0.5,
  p99Ms: 150,
  /** from the first import request until the alias can search every active item */
  importToSearchableSec: 15,
} as const;

/**
 * One target per gateway scenario at the run's highest connection count (64
 * by default: where the goals are read), errors over every run of the mode,
 * and the import until all is searchable.
 */
export function elasticsearchTargets(results: readonly LoadResult[], imported: ImportResult): Target[] {
  const top = Math.max(...results.map((r) => r.connections));
  const targets: Target[] = [];
  for (const r of results.filter((x) => x.scenario !== ES_BASELINE && x.connections === top)) {
    const ratio = ratioToBaseline(r, results, ES_BASELINE);
    targets.push({
      name: `${r.scenario} ≥ ${ES_GOALS.minBaselineShare * 100} % of the bare baseline's req/s at ${top} connections`,
      measured:
        ratio === undefined
          ? 'no baseline at that count'
          : `${(ratio * 100).toFixed(1)} % (${r.requestsPerSec.toFixed(0)} req/s)`,
      ok: ratio !== undefined && ratio >= ES_GOALS.minBaselineShare,
    });
    targets.push({
      name: `${r.scenario} p99 ≤ ${ES_GOALS.p99Ms} ms at ${top} connections`,
      measured: `${r.p99Ms.toFixed(1)} ms`,
      ok: r.p99Ms <= ES_GOALS.p99Ms,
    });
  }
  const errors = results.reduce((n, r) => n + r.errors, 0);
  targets.push({ name: 'no errors in any run', measured: `${errors} errors`, ok: errors === 0 });
  const toSearchable = imported.items / imported.indexPerSec;
  targets.push({
    name: `import to all searchable ≤ ${ES_GOALS.importToSearchableSec} s`,
    measured: `${toSearchable.toFixed(1)} s (${imported.searchableAfterImportSec.toFixed(1)} s after the import answered)`,
    ok: toSearchable <= ES_GOALS.importToSearchableSec,
  });
  return targets;
}
