/**
 * The progressive delays of the sign-in throttle on a fake clock: an address
 * past its failures waits 1, 2, 4 … s up to its cap, never the window; one
 * email from one address past its free failures waits longer each time.
 */
import { SignInThrottle } from '../../src/domain/limits/sign-in-throttle';
import { MemoryThrottleStore } from '../../src/store/memory-throttle.store';

const limits = { perAddress: 3, addressMaxDelayMs: 8_000, freeFailures: 3, windowMs: 15 * 60_000 };

/** Tries once at the clock's time: 0 when let through, else the Retry-After it was refused with. */
async function attempt(sut: SignInThrottle, email: string, address: string): Promise<number> {
  try {
    await sut.beginSignIn(email, address);
    return 0;
  } catch (err) {
    return Number((err as { headers: Record<string, string> }).headers['Retry-After']);
  }
}

describe('SignInThrottle', () => {
  it("waits 1, 2, 4, 8, 8 s between an address's tries once its free failures are spent: slowed to the cap, never locked for the window", async () => {
    const clock = { now: 1_000_000 };
    const sut = new SignInThrottle(limits, { store: new MemoryThrottleStore({ now: () => clock.now }) });
    for (let i = 0; i < 3; i += 1) expect(await attempt(sut, `someone${i}@example.com`, '192.0.2.1')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const wait = await attempt(sut, `other${i}@example.com`, '192.0.2.1');
      waits.push(wait);
      clock.now += wait * 1000;
      expect(await attempt(sut, `other${i}@example.com`, '192.0.2.1')).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8]);
    // another address is not slowed
    expect(await attempt(sut, 'other0@example.com', '192.0.2.2')).toBe(0);
  });

  it('gives a success its attempt back, so a right password now and then keeps the address out of the delay', async () => {
    const clock = { now: 1_000_000 };
    const sut = new SignInThrottle(limits, { store: new MemoryThrottleStore({ now: () => clock.now }) });
    for (let i = 0; i < 10; i += 1) {
      await sut.succeeded(await sut.beginSignIn(`colleague${i}@example.com`, '192.0.2.1'));
    }
    expect(await attempt(sut, 'next@example.com', '192.0.2.1')).toBe(0);
  });
});
