import { parseBenchOptions } from '../../src/cli-options';
import { floodTargets, formatStatuses, overloadTargets, OverloadRecorder } from '../../src/overload';

describe('the overload run', () => {
  const judged = (answers: Array<[status: number, ms: number, retryAfter?: string]>, noAnswer = 0) => {
    const recorder = new OverloadRecorder();
    for (const [status, ms, retryAfter] of answers) recorder.record(status, ms, retryAfter);
    const summary = recorder.summary(10, noAnswer);
    return {
      summary,
      missed: overloadTargets(summary)
        .filter((t) => !t.ok)
        .map((t) => t.name),
    };
  };
  const fast200s = Array.from({ length: 99 }, (): [number, number] => [200, 40]);

  it('passes a run of fast admitted searches and 503s that say when to come back', () => {
    const { summary, missed } = judged([...fast200s, [200, 90], [503, 2, '1'], [503, 3, '1']]);
    expect(missed).toEqual([]);
    expect(summary).toEqual(
      expect.objectContaining({
        answers: 102,
        admitted: 100,
        admittedP99Ms: 40,
        noAnswer: 0,
        statuses: { '200': 100, '503': 2 },
      }),
    );
    expect(formatStatuses(summary)).toMatch(/^503\s+2\s+2\.0 %$/m);
  });

  it('misses on a 401 to a valid key, another 5xx, a 503 without Retry-After and slow admitted searches', () => {
    expect(judged([...fast200s, [401, 5]]).missed).toEqual(['no 401 to a valid key']);
    expect(judged([...fast200s, [502, 5], [500, 5]]).missed).toEqual(['no 5xx other than 503']);
    expect(judged([...fast200s, [503, 5], [503, 5, 'soon']]).missed).toEqual(['every 503 with Retry-After']);
    expect(judged(fast200s, 2).missed).toEqual(['every request answered (no timeout, no connection error)']);
    // the refusals' own speed is not what the p99 judges: only admitted searches count
    const slow = Array.from({ length: 5 }, (): [number, number] => [200, 800]);
    expect(judged([...fast200s, ...slow, [503, 1, '1']]).missed).toEqual(['p99 of admitted searches ≤ 500 ms']);
    expect(judged([[503, 1, '1']]).missed).toEqual(['p99 of admitted searches ≤ 500 ms']);
  });

  it('judges the searches during a sign-up flood: every one answered, p99 within a second', () => {
    const missed = (during: { searches: number; p50Ms: number; p99Ms: number; errors: number }) =>
      floodTargets('one address', during)
        .filter((t) => !t.ok)
        .map((t) => t.name);
    expect(missed({ searches: 400, p50Ms: 3, p99Ms: 12, errors: 0 })).toEqual([]);
    expect(missed({ searches: 400, p50Ms: 3, p99Ms: 1_200, errors: 0 })).toEqual(['one address: search p99 ≤ 1000 ms']);
    expect(missed({ searches: 400, p50Ms: 3, p99Ms: 12, errors: 1 })).toEqual(['one address: no search failed']);
    expect(missed({ searches: 0, p50Ms: 0, p99Ms: 0, errors: 0 })).toEqual([
      'one address: no search failed',
      'one address: search p99 ≤ 1000 ms',
    ]);
  });

  it('defaults to 1,000 connections for 30 s and refuses options it would ignore', () => {
    expect(parseBenchOptions(['--overload'])).toEqual(
      expect.objectContaining({ overload: true, connections: [1_000], durationSec: 30 }),
    );
    expect(parseBenchOptions(['--overload', '--connections', '500', '--duration', '10'])).toEqual(
      expect.objectContaining({ connections: [500], durationSec: 10 }),
    );
    expect(() => parseBenchOptions(['--overload', '--connections', '64,1000'])).toThrow(/one connection count/);
    expect(() => parseBenchOptions(['--overload', '--engine', 'elasticsearch'])).toThrow(/--overload/);
    expect(() => parseBenchOptions(['--overload', '--quality'])).toThrow(/--overload/);
  });
});
