import { latencyChart } from '../src/chart';
import { catalogItem, searchMix, typo } from '../src/catalog-generator';
import { checkTargets, formatTable, lagOf, percentile, ratioToBaseline, type LoadResult } from '../src/stats';

const row = (scenario: string, connections: number, requestsPerSec: number, p99Ms = 10, errors = 0): LoadResult => ({
  scenario,
  connections,
  requestsPerSec,
  p50Ms: p99Ms / 2,
  p99Ms,
  errors,
  requests: requestsPerSec * 10,
});

describe('bench statistics', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(percentile(values, 50)).toBe(100);
    expect(percentile(values, 99)).toBe(198);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(lagOf([3, 1, 2])).toEqual({ samples: 3, p50Ms: 2, p99Ms: 3, maxMs: 3 });
  });

  it('compares each row with the baseline at the same connection count', () => {
    const rows = [row('baseline', 1, 1000), row('baseline', 64, 8000), row('search direct', 64, 2000)];
    expect(ratioToBaseline(rows[2] as LoadResult, rows)).toBe(0.25);
    const table = formatTable(rows).split('\n');
    expect(table[0]).toMatch(/^scenario\s+conns\s+req\/s\s+p50 ms\s+p99 ms\s+errors\s+vs baseline$/);
    expect(table[4]).toMatch(/^search direct\s+64\s+2000\s+5\.0\s+10\.0\s+0\s+25\.0 %$/);
  });

  it('checks the targets at 64 connections', () => {
    const rows = [row('baseline', 64, 8000), row('search direct', 64, 3000), row('search via gateway', 64, 2000, 60, 1)];
    const targets = checkTargets(rows, lagOf([100, 300]), { items: 10, recordPerSec: 12_000, indexPerSec: 9_000 });
    expect(targets.map((t) => [t.name, t.ok])).toEqual([
      ['gateway search ≥ 25 % of baseline req/s', true],
      ['gateway search errors = 0', false],
      ['gateway search p99 ≤ 50 ms', false],
      ['gateway search ≥ 70 % of direct req/s', false],
      ['index lag p99 ≤ 250 ms', false],
      ['import ≥ 10,000 items/s', true],
    ]);
  });

  it('draws one p50 and one p99 line per scenario', () => {
    const svg = latencyChart([row('baseline', 1, 1), row('baseline', 64, 1), row('search <direct>', 64, 1)], 'Latency');
    expect(svg.match(/<polyline/g)).toHaveLength(4);
    expect(svg).toContain('search &lt;direct>');
  });
});

describe('bench catalog', () => {
  it('is deterministic, with unique slugs and valid import lines', () => {
    expect(catalogItem(42)).toEqual(catalogItem(42));
    const items = Array.from({ length: 2000 }, (_, i) => catalogItem(i));
    expect(new Set(items.map((i) => i.slug)).size).toBe(2000);
    expect(new Set(items.map((i) => i.category)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(['skill', 'plugin']));
    for (const item of items) expect(item.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('mixes one-word, two-word, prefix, typo, filtered and deep-page searches', () => {
    const mix = searchMix(1000).map((p) => new URLSearchParams(p.split('?')[1]));
    expect(mix.some((p) => p.get('q')?.includes(' '))).toBe(true);
    expect(mix.some((p) => !p.has('q'))).toBe(true);
    expect(mix.some((p) => p.has('category'))).toBe(true);
    expect(mix.some((p) => Number(p.get('page')) >= 20)).toBe(true);
    expect(typo('kubernetes')).toBe('kubenretes');
  });
});
