/** Per-window figures of a soak run: a table for the terminal and an SVG chart of p99 and RSS over time. */

export interface Sample {
  /** seconds since the traffic started (end of the window) */
  atS: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export function formatTable(samples: readonly Sample[]): string {
  const head = '  time   requests  errors   p50 ms   p99 ms   RSS MB';
  const rows = samples.map(
    (s) =>
      `${String(s.atS).padStart(5)} s ${String(s.requests).padStart(9)} ${String(s.errors).padStart(7)} ${s.p50Ms.toFixed(1).padStart(8)} ${s.p99Ms
        .toFixed(1)
        .padStart(8)} ${s.rssMb.toFixed(0).padStart(8)}`,
  );
  return [head, ...rows].join('\n');
}

function panel(
  samples: readonly Sample[],
  value: (s: Sample) => number,
  label: string,
  top: number,
  color: string,
): string {
  const width = 640;
  const height = 180;
  const left = 60;
  const maxX = Math.max(10, ...samples.map((s) => s.atS));
  const maxY = Math.max(1, ...samples.map(value)) * 1.15;
  const x = (t: number) => left + (t / maxX) * (width - left - 20);
  const y = (v: number) => top + height - (v / maxY) * height;
  const points = samples.map((s) => `${x(s.atS).toFixed(1)},${y(value(s)).toFixed(1)}`).join(' ');
  const ticks = [0, 0.5, 1].map((f) => {
    const v = maxY * f;
    return `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11">${v.toFixed(v < 10 ? 1 : 0)}</text><line x1="${left}" x2="${width - 20}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`;
  });
  return [
    `<text x="${left}" y="${top - 8}" font-size="13" font-weight="bold">${label}</text>`,
    ...ticks,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + height}" stroke="#888"/>`,
    `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`,
    `<text x="${width - 20}" y="${top + height + 16}" text-anchor="end" font-size="11">${maxX} s</text>`,
    `<text x="${left}" y="${top + height + 16}" font-size="11">0 s</text>`,
  ].join('\n');
}

export function soakChart(samples: readonly Sample[], title: string): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="660" height="500" font-family="sans-serif">',
    '<rect width="100%" height="100%" fill="white"/>',
    `<text x="20" y="24" font-size="15" font-weight="bold">${title}</text>`,
    panel(samples, (s) => s.p99Ms, 'p99 latency per 10 s window (ms)', 60, '#c0392b'),
    panel(samples, (s) => s.rssMb, 'RSS of the stack, embedded Postgres included (MB)', 300, '#2471a3'),
    '</svg>',
  ].join('\n');
}
