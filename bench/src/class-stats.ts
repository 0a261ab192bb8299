/** Latency per request class (e.g. "typo" in the long-tail search mix): recorded per response, summarised per run. */
import { percentile } from './stats';

export interface ClassLatency {
  /** the request's class, e.g. "one word" */
  cls: string;
  /** answered requests of this class in the measured run */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** non-2xx answers (connection errors and timeouts have no class: they count in the run's total only) */
  errors: number;
}

/** Collects one run's latencies by class; classes are summarised in the order first seen. */
export class ClassRecorder {
  private readonly samples = new Map<string, number[]>();
  private readonly errors = new Map<string, number>();

  record(cls: string, ms: number, status: number): void {
    let list = this.samples.get(cls);
    if (!list) {
      list = [];
      this.samples.set(cls, list);
      this.errors.set(cls, 0);
    }
    list.push(ms);
    if (status < 200 || status >= 300) this.errors.set(cls, (this.errors.get(cls) ?? 0) + 1);
  }

  summary(order: readonly string[] = []): ClassLatency[] {
    const known = [
      ...order.filter((c) => this.samples.has(c)),
      ...[...this.samples.keys()].filter((c) => !order.includes(c)),
    ];
    return known.map((cls) => {
      const list = this.samples.get(cls) ?? [];
      return {
        cls,
        requests: list.length,
        p50Ms: percentile(list, 50),
        p99Ms: percentile(list, 99),
        errors: this.errors.get(cls) ?? 0,
      };
    });
  }
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** The per-class table: one block of rows per run that has classes. */
export function formatClassTable(
  runs: ReadonlyArray<{ scenario: string; connections: number; classes?: readonly ClassLatency[] }>,
): string {
  const header = ['scenario', 'conns', 'class', 'requests', 'share', 'p50 ms', 'p99 ms', 'errors'];
  const rows = runs.flatMap((run) => {
    const classes = run.classes ?? [];
    const total = classes.reduce((n, c) => n + c.requests, 0);
    return classes.map((c) => [
      run.scenario,
      String(run.connections),
      c.cls,
      String(c.requests),
      total ? `${((c.requests / total) * 100).toFixed(1)} %` : '–',
      fmt(c.p50Ms),
      fmt(c.p99Ms),
      String(c.errors),
    ]);
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
