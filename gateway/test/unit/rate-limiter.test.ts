import { RateLimiter } from '../../src/domain/rate-limiter';
import { MemoryRateLimitStore } from '../../src/store/memory-rate-limit.store';

function setup(limits: { pro: number; team: number }, maxKeys?: number) {
  let now = 0;
  const store = new MemoryRateLimitStore({ maxKeys, now: () => now });
  const sut = new RateLimiter({ limits, store, windowMs: 60_000 });
  return { sut, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter with the in-memory store', () => {
  it('allows the budget per window, then refuses until the window resets', async () => {
    const { sut, advance } = setup({ pro: 3, team: 10 });
    const remaining = [];
    for (let i = 0; i < 3; i += 1) remaining.push((await sut.take('k', 'pro'))?.remaining);
    expect(remaining).toEqual([2, 1, 0]);
    advance(20_000);
    expect(await sut.take('k', 'pro')).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 40 });
    advance(40_000);
    expect(await sut.take('k', 'pro')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
  });

  it('takes the limit from the plan', async () => {
    const { sut } = setup({ pro: 3, team: 10 });
    expect(await sut.take('t', 'team')).toMatchObject({ limit: 10, remaining: 9 });
  });

  it('does not limit a plan whose limit is 0', async () => {
    const { sut } = setup({ pro: 0, team: 10 });
    expect(await sut.take('k', 'pro')).toBeUndefined();
  });

  it('keeps one budget per key', async () => {
    const { sut } = setup({ pro: 1, team: 1 });
    expect((await sut.take('a', 'pro'))?.allowed).toBe(true);
    expect((await sut.take('a', 'pro'))?.allowed).toBe(false);
    expect((await sut.take('b', 'pro'))?.allowed).toBe(true);
  });

  it('never reports a reset of 0 seconds', async () => {
    const { sut, advance } = setup({ pro: 1, team: 1 });
    await sut.take('k', 'pro');
    advance(59_900);
    expect((await sut.take('k', 'pro'))?.resetSeconds).toBe(1);
  });

  it('stays bounded in the number of keys it tracks', async () => {
    const { sut } = setup({ pro: 1, team: 1 }, 2);
    await sut.take('a', 'pro');
    await sut.take('b', 'pro');
    await sut.take('c', 'pro');
    // 'a' was dropped to make room, so it starts a fresh window.
    expect((await sut.take('a', 'pro'))?.allowed).toBe(true);
    expect((await sut.take('c', 'pro'))?.allowed).toBe(false);
  });
});
