import { runsChart } from '../../src/chart';
import { catalogItem } from '../../src/catalog-generator';
import {
  checkTargets,
  formatTable,
  lagOf,
  percentile,
  ratioToBaseline,
  type ImportResult,
  type LoadResult,
} from '../../src/stats';

const row = (scenario: string, connections: number, requestsPerSec: number, p99Ms = 10, errors = 0): LoadResult => ({
  scenario,
  connections,
  requestsPerSec,
  p50Ms: p99Ms / 2,
  p99Ms,
  errors,
  noAnswer: 0,
  requests: requestsPerSec * 10,
});

const imported = (searchableAfterImportSec: number, recordPerSec = 12_000): ImportResult => ({
  items: 10,
  recordPerSec,
  indexPerSec: 9_000,
  activeItems: 10,
  searchableAfterImportSec,
  indexSource: 'metric',
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
    const rows = [
      row('baseline', 1, 1000),
      row('baseline', 64, 8000),
      { ...row('search long tail direct', 64, 2000), searchCache: 'on' as const, searchCacheHitRate: 0.125 },
      { ...row('search long tail direct (cache off)', 64, 1000), searchCache: 'off' as const },
      {
        ...row('search repeated via gateway', 64, 4000),
        searchCache: 'on' as const,
        answerCacheHitRate: 0.96,
        searchCacheHitRate: 1,
      },
    ];
    expect(ratioToBaseline(rows[2] as LoadResult, rows)).toBe(0.25);
    const table = formatTable(rows).split('\n');
    expect(table[0]).toMatch(
      /^scenario\s+conns\s+req\/s\s+p50 ms\s+p99 ms\s+errors\s+vs baseline\s+gateway cache\s+catalog cache$/,
    );
    expect(table[2]).toMatch(/^baseline\s+1\s+1000\s+5\.0\s+10\.0\s+0\s+100\.0 %\s+–\s+–$/);
    expect(table[4]).toMatch(/^search long tail direct\s+64\s+2000\s+5\.0\s+10\.0\s+0\s+25\.0 %\s+–\s+12\.5 %$/);
    expect(table[5]).toMatch(
      /^search long tail direct \(cache off\)\s+64\s+1000\s+5\.0\s+10\.0\s+0\s+12\.5 %\s+off\s+off$/,
    );
    expect(table[6]).toMatch(
      /^search repeated via gateway\s+64\s+4000\s+5\.0\s+10\.0\s+0\s+50\.0 %\s+96\.0 %\s+100\.0 %$/,
    );
  });

  it('checks the long tail with the cache on and off, the repeated mix, and the import at 64 connections', () => {
    const rows = [
      row('baseline', 64, 8000),
      row('search long tail via gateway', 1, 10, 500),
      row('search long tail via gateway', 64, 1500, 80),
      row('search long tail via gateway (cache off)', 64, 900, 120, 2),
      row('search repeated via gateway', 64, 1000),
      row('search repeated via gateway (cache off)', 64, 1300),
    ];
    const targets = checkTargets(rows, lagOf([100, 300]), imported(12.5));
    expect(targets.map((t) => [t.name, t.ok])).toEqual([
      ['search long tail via gateway ≥ 1,000 req/s', true],
      ['search long tail via gateway p99 ≤ 100 ms', true],
      ['search long tail via gateway errors = 0', true],
      ['search long tail via gateway (cache off) ≥ 1,000 req/s', false],
      ['search long tail via gateway (cache off) p99 ≤ 100 ms', false],
      ['search long tail via gateway (cache off) errors = 0', false],
      ['search repeated via gateway ≥ 15 % of baseline req/s', false],
      ['all searchable ≤ 10 s after the import answered', false],
      ['index lag p99 ≤ 250 ms', false],
      ['import ≥ 10,000 items/s', true],
    ]);
    expect(targets[6]?.measured).toBe('12.5 %');
    expect(targets[7]?.measured).toBe('12.5 s');
  });

  it('gives the broad vocabulary a p99 budget of 150 ms and checks a repeated run without the cache when it is the only one', () => {
    const rows = [
      row('baseline', 64, 8000),
      row('search long tail via gateway (cache off)', 64, 1000, 120),
      row('search repeated via gateway (cache off)', 64, 1300),
    ];
    const targets = checkTargets(rows, undefined, imported(3, 9_000), { broad: true });
    expect(targets.map((t) => [t.name, t.ok])).toEqual([
      ['search long tail via gateway (cache off) ≥ 1,000 req/s', true],
      ['search long tail via gateway (cache off) p99 ≤ 150 ms', true],
      ['search long tail via gateway (cache off) errors = 0', true],
      ['search repeated via gateway (cache off) ≥ 15 % of baseline req/s', true],
      ['all searchable ≤ 10 s after the import answered', true],
      ['import ≥ 10,000 items/s', false],
    ]);
  });

  it('checks the changes feed read through the gateway at 2,000 items/s when it was measured', () => {
    const feedTarget = (itemsPerSec: number) =>
      checkTargets([], undefined, undefined, { broad: false, feed: { itemsPerSec } }).find((t) =>
        t.name.startsWith('changes feed'),
      );
    expect(feedTarget(2_500)).toMatchObject({ measured: '2500 items/s', ok: true });
    expect(feedTarget(1_999)?.ok).toBe(false);
    expect(checkTargets([], undefined, undefined).some((t) => t.name.startsWith('changes feed'))).toBe(false);
  });

  it('draws a throughput line and a p50 and a p99 line per scenario', () => {
    const svg = runsChart([row('baseline', 1, 1), row('baseline', 64, 1), row('search <direct>', 64, 1)], 'Runs');
    expect(svg.match(/<polyline/g)).toHaveLength(6);
    expect(svg).toContain('throughput (req/s)');
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

  it('holds a 1,000,000-item catalog to 300 req/s and checks catalog-service’s memory and start-up', () => {
    const rows = [row('search long tail via gateway', 64, 320, 90)];
    const targets = checkTargets(rows, undefined, undefined, {
      broad: false,
      items: 1_000_000,
      catalogService: { rssBytes: 1.6 * 1024 ** 3, readySec: 42 },
    });
    expect(targets.map((t) => [t.name, t.ok])).toEqual([
      ['search long tail via gateway ≥ 300 req/s', true],
      ['search long tail via gateway p99 ≤ 100 ms', true],
      ['search long tail via gateway errors = 0', true],
      ['catalog-service RSS ≤ 1.5 GB', false],
      ['catalog-service start-up to ready ≤ 60 s', true],
    ]);
  });
});
