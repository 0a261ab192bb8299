/**
 * A dependency-free SVG bar chart of latency per query class: for each class,
 * one bar per search scenario at the largest connection count, p99 as the
 * pale bar and p50 as the solid one inside it.
 */
import type { LoadResult } from './stats';

const COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#9d755d'];
const W = 860;
const M = { left: 110, right: 240, top: 40, bottom: 50 };
const BAR = 12;
const GAP = 10;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function niceCeil(v: number): number {
  const exp = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * exp >= v) return m * exp;
  return 10 * exp;
}

export function classLatencyChart(results: readonly LoadResult[], title: string): string {
  const withClasses = results.filter((r) => r.classes && r.classes.length > 0);
  const top = Math.max(0, ...withClasses.map((r) => r.connections));
  const runs = withClasses.filter((r) => r.connections === top);
  const classes = [...new Set(runs.flatMap((r) => (r.classes ?? []).map((c) => c.cls)))];
  const finite = (v: number) => (Number.isFinite(v) ? v : 0);
  const maxX = niceCeil(Math.max(1, ...runs.flatMap((r) => (r.classes ?? []).map((c) => finite(c.p99Ms)))));
  const groupH = runs.length * BAR + GAP;
  const plotH = Math.max(groupH, classes.length * groupH);
  const H = M.top + plotH + M.bottom;
  const plotW = W - M.left - M.right;
  const x = (ms: number) => M.left + (finite(ms) / maxX) * plotW;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">${esc(`${title}, ${top} connections`)}</text>`,
  ];
  for (let k = 0; k <= 5; k++) {
    const v = (maxX / 5) * k;
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${M.top}" y2="${M.top + plotH}" stroke="#ddd"/>`);
    parts.push(`<text x="${x(v)}" y="${M.top + plotH + 16}" text-anchor="middle">${v.toFixed(v < 10 ? 1 : 0)}</text>`);
  }
  parts.push(`<text x="${M.left + plotW / 2}" y="${H - 10}" text-anchor="middle">latency (ms)</text>`);
  classes.forEach((cls, g) => {
    const gy = M.top + g * groupH;
    parts.push(`<text x="${M.left - 8}" y="${gy + (runs.length * BAR) / 2 + 4}" text-anchor="end">${esc(cls)}</text>`);
    runs.forEach((run, i) => {
      const c = run.classes?.find((k) => k.cls === cls);
      if (!c) return;
      const colour = COLOURS[i % COLOURS.length] as string;
      const y = gy + i * BAR;
      parts.push(
        `<rect x="${M.left}" y="${y}" width="${x(c.p99Ms) - M.left}" height="${BAR - 2}" fill="${colour}" fill-opacity="0.35"/>`,
      );
      parts.push(`<rect x="${M.left}" y="${y}" width="${x(c.p50Ms) - M.left}" height="${BAR - 2}" fill="${colour}"/>`);
      parts.push(
        `<text x="${x(c.p99Ms) + 4}" y="${y + BAR - 3}" font-size="10">${finite(c.p50Ms).toFixed(1)} / ${finite(c.p99Ms).toFixed(1)}</text>`,
      );
    });
  });
  runs.forEach((run, i) => {
    const ly = M.top + 10 + i * 18;
    const colour = COLOURS[i % COLOURS.length] as string;
    parts.push(`<rect x="${W - M.right + 15}" y="${ly - 6}" width="20" height="10" fill="${colour}"/>`);
    parts.push(`<text x="${W - M.right + 40}" y="${ly + 3}">${esc(run.scenario)}</text>`);
  });
  parts.push(
    `<text x="${W - M.right + 15}" y="${M.top + 20 + runs.length * 18}">solid p50, pale p99 (ms: p50 / p99)</text>`,
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
