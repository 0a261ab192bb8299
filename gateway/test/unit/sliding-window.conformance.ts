/**
 * What every SlidingWindowStore must do, on a fake clock: run by the
 * in-memory store's unit test always and by the Redis store's test when a
 * Redis answers. `clock.now` is in ms; windows are 60 s.
 */
import type { SlidingWindowStore } from '../../src/domain/limits/sliding-window';

export interface ConformanceClock {
  now: number;
}

export function describeSlidingWindowStore(
  name: string,
  make: (clock: ConformanceClock) => SlidingWindowStore | Promise<SlidingWindowStore>,
  idPrefix = '',
): void {
  const W = 60_000;
  describe(`${name}: the sliding-window rule`, () => {
    let clock: ConformanceClock;
    let store: SlidingWindowStore;
    let n = 0;
    const id = () => `${idPrefix}client-${++n}`;
    beforeEach(async () => {
      // the start of a fixed window, far from 0 so the previous window exists
      clock = { now: 1_000 * W };
      store = await make(clock);
    });
    afterEach(async () => {
      await store.close?.();
    });

    it('counts up to the limit, then refuses without counting', async () => {
      const c = id();
      const allowed = [];
      for (let i = 0; i < 4; i++) allowed.push((await store.take(c, 3, W)).allowed);
      expect(allowed).toEqual([true, true, true, false]);
      expect((await store.peek(c, W)).counts).toMatchObject({ current: 3, previous: 0 });
    });

    it('does not give the budget back at the window edge: a burst at the end of one window weighs on the next', async () => {
      const c = id();
      clock.now += W - 1_000; // the last second of the window
      for (let i = 0; i < 10; i++) expect((await store.take(c, 10, W)).allowed).toBe(true);
      clock.now += 2_000; // one second into the next: 10 × 59/60 still counted
      expect((await store.take(c, 10, W)).allowed).toBe(false);
      clock.now += 15_000; // 16 s in: 10 × 44/60 ≈ 7.3 counted, room for 2
      expect((await store.take(c, 10, W)).allowed).toBe(true);
      expect((await store.take(c, 10, W)).allowed).toBe(true);
      expect((await store.take(c, 10, W)).allowed).toBe(false);
    });

    it('forgets a window two windows old', async () => {
      const c = id();
      for (let i = 0; i < 3; i++) await store.take(c, 3, W);
      clock.now += 2 * W;
      expect(await store.take(c, 3, W)).toMatchObject({ allowed: true, counts: { current: 1, previous: 0 } });
    });

    it('keeps one window per id, and reports where in the window a request came', async () => {
      const [a, b] = [id(), id()];
      clock.now += 1_234;
      await store.take(a, 1, W);
      expect((await store.take(a, 1, W)).allowed).toBe(false);
      const other = await store.take(b, 1, W);
      expect(other).toMatchObject({ allowed: true, elapsedMs: 1_234 });
    });

    it('peeks without counting', async () => {
      const c = id();
      await store.take(c, 5, W);
      await store.peek(c, W);
      await store.peek(c, W);
      expect((await store.peek(c, W)).counts.current).toBe(1);
    });
  });
}
