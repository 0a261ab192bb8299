/**
 * A dependency-free SVG chart of a run, per scenario against connections:
 * throughput (req/s) above, latency (p99 solid, p50 dashed) below.
 */
import type { LoadResult } from './stats';

const COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#9d755d'];
const W = 760;
const PANEL_H = 300;
const M = { left: 60, right: 200, top: 40, bottom: 50 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

interface Panel {
  /** its top edge in the SVG */
  top: number;
  label: string;
  /** the lines drawn per scenario: a value of a run, and its dash pattern ('' solid) */
  lines: ReadonlyArray<readonly [(r: LoadResult) => number, string]>;
}

function finite(v: number): number {
  return Number.isFinite(v) ? v : 0;
}

/** One panel: axes, grid and a polyline per scenario and line. */
function drawPanel(
  results: readonly LoadResult[],
  panel: Panel,
  scenarios: readonly string[],
  conns: readonly number[],
): string[] {
  const maxY = niceCeil(Math.max(1, ...results.flatMap((r) => panel.lines.map(([value]) => finite(value(r))))));
  const plotW = W - M.left - M.right;
  const plotH = PANEL_H - M.top - M.bottom;
  // Connections are 1, 16, 64: evenly spaced categories read better than a linear axis.
  const x = (c: number) => M.left + (conns.length === 1 ? plotW / 2 : (conns.indexOf(c) / (conns.length - 1)) * plotW);
  const y = (v: number) => panel.top + M.top + plotH - (finite(v) / maxY) * plotH;
  const parts: string[] = [];
  for (let k = 0; k <= 5; k++) {
    const v = (maxY / 5) * k;
    parts.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(v < 10 ? 1 : 0)}</text>`);
  }
  const bottom = panel.top + M.top + plotH;
  for (const c of conns) parts.push(`<text x="${x(c)}" y="${bottom + 18}" text-anchor="middle">${c}</text>`);
  parts.push(`<text x="${M.left + plotW / 2}" y="${bottom + 36}" text-anchor="middle">connections</text>`);
  const mid = panel.top + M.top + plotH / 2;
  parts.push(
    `<text x="16" y="${mid}" transform="rotate(-90 16 ${mid})" text-anchor="middle">${esc(panel.label)}</text>`,
  );
  scenarios.forEach((scenario, i) => {
    const colour = COLOURS[i % COLOURS.length] as string;
    const rows = results.filter((r) => r.scenario === scenario).sort((a, b) => a.connections - b.connections);
    for (const [value, dash] of panel.lines) {
      const points = rows.map((r) => `${x(r.connections)},${y(value(r))}`).join(' ');
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${points}"/>`);
    }
  });
  return parts;
}

/** Throughput and latency against connections, one colour per scenario. */
export function runsChart(results: readonly LoadResult[], title: string): string {
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  const conns = [...new Set(results.map((r) => r.connections))].sort((a, b) => a - b);
  const height = 2 * PANEL_H;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${height}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">${esc(title)}</text>`,
    ...drawPanel(
      results,
      { top: 0, label: 'throughput (req/s)', lines: [[(r) => r.requestsPerSec, '']] },
      scenarios,
      conns,
    ),
    ...drawPanel(
      results,
      {
        top: PANEL_H,
        label: 'latency (ms)',
        lines: [
          [(r) => r.p99Ms, ''],
          [(r) => r.p50Ms, ' stroke-dasharray="4 3"'],
        ],
      },
      scenarios,
      conns,
    ),
  ];
  scenarios.forEach((scenario, i) => {
    const colour = COLOURS[i % COLOURS.length] as string;
    const ly = M.top + 10 + i * 18;
    parts.push(
      `<line x1="${W - M.right + 15}" x2="${W - M.right + 35}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${W - M.right + 40}" y="${ly + 4}">${esc(scenario)}</text>`);
  });
  parts.push(`<text x="${W - M.right + 15}" y="${PANEL_H + M.top + 10}">solid p99, dashed p50</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceCeil(v: number): number {
  const exp = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * exp >= v) return m * exp;
  return 10 * exp;
}
