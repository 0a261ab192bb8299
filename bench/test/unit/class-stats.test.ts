import { classLatencyChart } from '../../src/class-chart';
import { ClassRecorder, formatClassTable } from '../../src/class-stats';
import type { LoadResult } from '../../src/stats';

describe('latency per class', () => {
  it('summarises each class in the given order, counting non-2xx answers', () => {
    const recorder = new ClassRecorder();
    for (let ms = 1; ms <= 100; ms++) recorder.record('typo', ms, ms === 100 ? 500 : 200);
    recorder.record('one word', 3, 200);
    recorder.record('other', 4, 404);
    expect(recorder.summary(['one word', 'prefix', 'typo'])).toEqual([
      { cls: 'one word', requests: 1, p50Ms: 3, p99Ms: 3, errors: 0 },
      { cls: 'typo', requests: 100, p50Ms: 50, p99Ms: 99, errors: 1 },
      { cls: 'other', requests: 1, p50Ms: 4, p99Ms: 4, errors: 1 },
    ]);
  });

  it('prints one row per class under each run, and charts the runs at the most connections', () => {
    const run = (scenario: string, connections: number): LoadResult => ({
      scenario,
      connections,
      requestsPerSec: 1,
      p50Ms: 1,
      p99Ms: 2,
      errors: 0,
      noAnswer: 0,
      requests: 4,
      classes: [
        { cls: 'one word', requests: 3, p50Ms: 1.25, p99Ms: 4, errors: 0 },
        { cls: 'typo', requests: 1, p50Ms: 8, p99Ms: 8, errors: 1 },
      ],
    });
    const runs = [
      run('search long tail direct', 1),
      run('search long tail direct', 64),
      run('search <x>', 64),
      { ...run('baseline', 64), classes: undefined },
    ];
    const table = formatClassTable(runs).split('\n');
    expect(table).toHaveLength(2 + 6);
    expect(table[0]).toMatch(/^scenario\s+conns\s+class\s+requests\s+share\s+p50 ms\s+p99 ms\s+errors$/);
    expect(table[2]).toMatch(/^search long tail direct\s+1\s+one word\s+3\s+75\.0 %\s+1\.3\s+4\.0\s+0$/);
    const svg = classLatencyChart(runs, 'Classes');
    // two runs at 64 connections × two classes, a p99 and a p50 bar each, plus two legend swatches
    expect(svg.match(/<rect /g)).toHaveLength(1 + 2 * 2 * 2 + 2);
    expect(svg).toContain('search &lt;x>');
    expect(svg).toContain('Classes, 64 connections');
  });
});
