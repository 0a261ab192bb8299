/** A dependency-free SVG line chart: latency (p50 dashed, p99 solid) against connections, per scenario. */
import type { LoadResult } from './stats';

const COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#9d755d'];
const W = 760;
const H = 420;
const M = { left: 60, right: 200, top: 40, bottom: 50 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function latencyChart(results: readonly LoadResult[], title: string): string {
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  const conns = [...new Set(results.map((r) => r.connections))].sort((a, b) => a - b);
  const maxY = niceCeil(Math.max(1, ...results.map((r) => (Number.isFinite(r.p99Ms) ? r.p99Ms : 0))));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  // Connections are 1, 16, 64: evenly spaced categories read better than a linear axis.
  const x = (c: number) => M.left + (conns.length === 1 ? plotW / 2 : (conns.indexOf(c) / (conns.length - 1)) * plotW);
  const y = (ms: number) => M.top + plotH - (ms / maxY) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let k = 0; k <= 5; k++) {
    const v = (maxY / 5) * k;
    parts.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(v < 10 ? 1 : 0)}</text>`);
  }
  for (const c of conns) parts.push(`<text x="${x(c)}" y="${M.top + plotH + 18}" text-anchor="middle">${c}</text>`);
  parts.push(`<text x="${M.left + plotW / 2}" y="${H - 10}" text-anchor="middle">connections</text>`);
  parts.push(`<text x="16" y="${M.top + plotH / 2}" transform="rotate(-90 16 ${M.top + plotH / 2})" text-anchor="middle">latency (ms)</text>`);
  scenarios.forEach((scenario, i) => {
    const colour = COLOURS[i % COLOURS.length] as string;
    const rows = results.filter((r) => r.scenario === scenario).sort((a, b) => a.connections - b.connections);
    for (const [key, dash] of [
      ['p99Ms', ''],
      ['p50Ms', ' stroke-dasharray="4 3"'],
    ] as const) {
      const points = rows.map((r) => `${x(r.connections)},${y(r[key])}`).join(' ');
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${points}"/>`);
    }
    const ly = M.top + 10 + i * 18;
    parts.push(`<line x1="${W - M.right + 15}" x2="${W - M.right + 35}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(`<text x="${W - M.right + 40}" y="${ly + 4}">${esc(scenario)}</text>`);
  });
  const ly = M.top + 20 + scenarios.length * 18;
  parts.push(`<text x="${W - M.right + 15}" y="${ly}">solid p99, dashed p50</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceCeil(v: number): number {
  const exp = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * exp >= v) return m * exp;
  return 10 * exp;
}
