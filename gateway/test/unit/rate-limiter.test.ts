import { RateLimiter } from '../../src/domain/limits/rate-limiter';
import { MemoryRateLimitStore } from '../../src/store/memory-rate-limit.store';

function setup(limits: { pro: number; team: number }) {
  // the start of a fixed window
  let now = 1_000 * 60_000;
  const store = new MemoryRateLimitStore({ now: () => now });
  const sut = new RateLimiter({ limits, store, windowMs: 60_000 });
  return { sut, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('allows the plan budget, then refuses, naming when one more request fits', async () => {
    const { sut, advance } = setup({ pro: 3, team: 10 });
    const remaining = [];
    for (let i = 0; i < 3; i += 1) remaining.push((await sut.take('acct', 'pro'))?.remaining);
    expect(remaining).toEqual([2, 1, 0]);
    advance(20_000);
    // 3 spent in this window: the next fits 40 s later (the window's end) plus the 20 s that slide 1 of them out
    expect(await sut.take('acct', 'pro')).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 100,
      retryAfterSeconds: 60,
    });
    advance(60_000);
    expect(await sut.take('acct', 'pro')).toMatchObject({ allowed: true, limit: 3 });
  });

  it('counts per account: the id it is given, whatever key made the call', async () => {
    const { sut } = setup({ pro: 1, team: 1 });
    expect((await sut.take('a', 'pro'))?.allowed).toBe(true);
    expect((await sut.take('a', 'pro'))?.allowed).toBe(false);
    expect((await sut.take('b', 'pro'))?.allowed).toBe(true);
  });

  it('takes the limit from the plan, and does not limit a plan whose limit is 0', async () => {
    const { sut } = setup({ pro: 0, team: 10 });
    expect(await sut.take('t', 'team')).toMatchObject({ limit: 10, remaining: 9 });
    expect(await sut.take('k', 'pro')).toBeUndefined();
  });

  it('never reports 0 seconds', async () => {
    const { sut, advance } = setup({ pro: 1, team: 1 });
    advance(119_950);
    await sut.take('k', 'pro');
    advance(60_040);
    const decision = await sut.take('k', 'pro');
    expect(decision?.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(decision?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
