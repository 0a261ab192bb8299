import { RateLimiter } from '../../src/domain/rate-limiter';

function setup(limit: number, maxKeys?: number) {
  let now = 0;
  const sut = new RateLimiter({ limit, windowMs: 60_000, maxKeys, now: () => now });
  return { sut, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('allows the budget per window, then refuses until the window resets', () => {
    const { sut, advance } = setup(3);
    expect([1, 2, 3].map(() => sut.take('k').remaining)).toEqual([2, 1, 0]);
    advance(20_000);
    expect(sut.take('k')).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 40 });
    advance(40_000);
    expect(sut.take('k')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
  });

  it('keeps one budget per key', () => {
    const { sut } = setup(1);
    expect(sut.take('a').allowed).toBe(true);
    expect(sut.take('a').allowed).toBe(false);
    expect(sut.take('b').allowed).toBe(true);
  });

  it('never reports a reset of 0 seconds', () => {
    const { sut, advance } = setup(1);
    sut.take('k');
    advance(59_900);
    expect(sut.take('k').resetSeconds).toBe(1);
  });

  it('stays bounded in the number of keys it tracks', () => {
    const { sut } = setup(1, 2);
    sut.take('a');
    sut.take('b');
    sut.take('c');
    // 'a' was dropped to make room, so it starts a fresh window.
    expect(sut.take('a').allowed).toBe(true);
    expect(sut.take('c').allowed).toBe(false);
  });

  it('is off with a limit of 0', () => {
    expect(new RateLimiter({ limit: 0 }).enabled).toBe(false);
  });
});
