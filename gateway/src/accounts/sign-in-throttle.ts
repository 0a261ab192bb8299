/**
 * Slows down password guessing and sign-up floods, per client address (the
 * one the gateway derives behind a trusted proxy, http/client-address.ts;
 * an IPv6 client by its /64, domain/address-key.ts),
 * without letting anyone lock a chosen account out:
 *
 * - an address has `perAddress` sign-in attempts and `signUpsPerAddress`
 *   sign-ups per window; a successful sign-in gives its attempt back;
 * - one email from one address gets `freeFailures` failures in a row, then
 *   each further try waits twice as long as the one before (1 s, 2 s, 4 s …,
 *   at most the window). Other addresses are not slowed: the account's owner
 *   signs in while an attacker elsewhere is being held back.
 *
 * Every attempt is counted when it starts, before the password is verified,
 * so a parallel burst cannot slip past the limits while the hashes run.
 * Counted in this replica's memory: N replicas allow up to N × the limits.
 */
import { RateLimitError } from '@skills/common';
import { addressKey } from '../domain/address-key';

export interface ThrottleLimits {
  /** sign-in attempts not (yet) successful, per address and window */
  perAddress: number;
  /** failures in a row of one email from one address before the progressive delay starts */
  freeFailures: number;
  /** sign-ups per address and window */
  signUpsPerAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAddress: 20, freeFailures: 3, signUpsPerAddress: 10, windowMs: 15 * 60_000 };

interface Window {
  startedAt: number;
  count: number;
  /** when the last attempt of this window started */
  lastAt: number;
}

/** A sign-in attempt under way: hand it back to `succeeded` when the password was right. */
export interface Attempt {
  pair: string;
  address: string;
}

export class SignInThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
    options: { now?: () => number; maxEntries?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** Counts a sign-in attempt now, or throws 429 with Retry-After when the address or the pair must wait. */
  beginSignIn(email: string, address: string): Attempt {
    const client = addressKey(address);
    const attempt = { pair: `p:${email.toLowerCase()}\u0000${client}`, address: `a:${client}` };
    const seconds = Math.max(this.fullFor(attempt.address, this.limits.perAddress), this.delayFor(attempt.pair));
    if (seconds > 0) throw new RateLimitError('signIn.throttled', { seconds }, { headers: { 'Retry-After': String(seconds) } });
    this.count(attempt.address);
    this.count(attempt.pair);
    return attempt;
  }

  /** The password was right: the pair starts afresh and the address gets its attempt back. */
  succeeded(attempt: Attempt): void {
    this.windows.delete(attempt.pair);
    const window = this.live(attempt.address);
    if (window) window.count = Math.max(0, window.count - 1);
  }

  /** Counts a sign-up now, or throws 429 with Retry-After when the address has used its share. */
  beginSignUp(address: string): void {
    const id = `s:${addressKey(address)}`;
    const seconds = this.fullFor(id, this.limits.signUpsPerAddress);
    if (seconds > 0) throw new RateLimitError('signUp.throttled', { seconds }, { headers: { 'Retry-After': String(seconds) } });
    this.count(id);
  }

  /** Seconds until the window of `id` ends when it is full; 0 otherwise. */
  private fullFor(id: string, limit: number): number {
    const window = this.live(id);
    if (!window || window.count < limit) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.limits.windowMs - this.now()) / 1000));
  }

  /** Seconds a pair past its free failures still waits: 1, 2, 4 … after its last attempt. */
  private delayFor(id: string): number {
    const window = this.live(id);
    if (!window || window.count < this.limits.freeFailures) return 0;
    const delayMs = Math.min(1000 * 2 ** (window.count - this.limits.freeFailures), this.limits.windowMs);
    const left = window.lastAt + delayMs - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  private count(id: string): void {
    let window = this.live(id);
    if (!window) {
      window = { startedAt: this.now(), count: 0, lastAt: 0 };
      this.windows.set(id, window);
      if (this.windows.size > this.maxEntries) this.prune();
    }
    window.count += 1;
    window.lastAt = this.now();
  }

  private live(id: string): Window | undefined {
    const window = this.windows.get(id);
    if (window && this.now() - window.startedAt >= this.limits.windowMs) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  private prune(): void {
    for (const id of this.windows.keys()) {
      this.live(id);
      if (this.windows.size <= this.maxEntries) return;
    }
    // Still full of live windows: drop the oldest rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxEntries) return;
      this.windows.delete(id);
    }
  }
}
