import { fits, fullResetMs, retryAfterMs, rotate, weightedCount } from '../../src/domain/limits/sliding-window';
import { MemoryRateLimitStore } from '../../src/store/memory-rate-limit.store';
import { describeSlidingWindowStore } from './sliding-window.conformance';

const W = 60_000;

describe('sliding window, the rule', () => {
  it('rolls the current window into the previous one, and forgets older ones', () => {
    const stored = { index: 10, current: 7, previous: 3 };
    expect(rotate(stored, 10)).toBe(stored);
    expect(rotate(stored, 11)).toEqual({ index: 11, current: 0, previous: 7 });
    expect(rotate(stored, 12)).toEqual({ index: 12, current: 0, previous: 0 });
    expect(rotate(undefined, 5)).toEqual({ index: 5, current: 0, previous: 0 });
  });

  it('weighs the previous window by how much of it is still in the last window', () => {
    const counts = { index: 1, current: 2, previous: 60 };
    expect(weightedCount(counts, 0, W)).toBe(62);
    expect(weightedCount(counts, 15_000, W)).toBe(47);
    expect(weightedCount(counts, 59_999, W)).toBeCloseTo(2.001, 3);
  });

  it('says when one more request fits: later in this window, or in the next one', () => {
    // 45 in the previous window, 10 now, limit 40: fits once 45 × (1 - e/60 s) ≤ 29, at e = 21.33 s
    const inThisWindow = { index: 1, current: 10, previous: 45 };
    expect(fits(inThisWindow, 0, W, 40)).toBe(false);
    expect(retryAfterMs(inThisWindow, 1_000, W, 40)).toBe(20_334);
    expect(fits(inThisWindow, 21_334, W, 40)).toBe(true);
    // the whole budget spent in this window: wait for the next, then for this one to slide out enough
    const full = { index: 1, current: 40, previous: 0 };
    expect(retryAfterMs(full, 10_000, W, 40)).toBe(50_000 + 1_500);
    expect(retryAfterMs({ index: 1, current: 1, previous: 0 }, 10_000, W, 40)).toBe(0);
  });

  it('says when the whole budget is back', () => {
    expect(fullResetMs({ index: 1, current: 1, previous: 9 }, 20_000, W)).toBe(100_000);
    expect(fullResetMs({ index: 1, current: 0, previous: 9 }, 20_000, W)).toBe(40_000);
    expect(fullResetMs({ index: 1, current: 0, previous: 0 }, 20_000, W)).toBe(0);
  });
});

describeSlidingWindowStore('MemoryRateLimitStore', (clock) => new MemoryRateLimitStore({ now: () => clock.now }));

describe('MemoryRateLimitStore', () => {
  it('stays bounded in the number of clients it tracks, dropping the least recently used', async () => {
    const now = 0;
    const sut = new MemoryRateLimitStore({ maxKeys: 2, now: () => now });
    await sut.take('a', 1, W);
    await sut.take('b', 1, W);
    await sut.take('c', 1, W);
    // 'a' was dropped to make room, so it starts afresh
    expect((await sut.take('a', 1, W)).allowed).toBe(true);
    expect((await sut.take('c', 1, W)).allowed).toBe(false);
  });
});
