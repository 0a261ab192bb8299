/**
 * Slows down password guessing: failed sign-ins are counted per account
 * (email) and per client address in fixed windows; past the limit, sign-in
 * with that email, or from that address, answers 429 with Retry-After until
 * the window ends, right password or not. Counted in this replica's memory:
 * N replicas allow up to N × the limits, still far below what guessing needs.
 */
import { RateLimitError } from '@skills/common';

export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

interface Window {
  startedAt: number;
  failures: number;
}

export class SignInThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
    options: { now?: () => number; maxEntries?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  private readonly maxEntries: number;

  /** Throws 429 when the email or the address has used up its failures. */
  check(email: string, address: string): void {
    const blocked = [this.blockedFor(`e:${email.toLowerCase()}`, this.limits.perAccount), this.blockedFor(`a:${address}`, this.limits.perAddress)];
    const seconds = Math.max(...blocked);
    if (seconds > 0) throw new RateLimitError('signIn.throttled', { seconds }, { headers: { 'Retry-After': String(seconds) } });
  }

  failed(email: string, address: string): void {
    this.count(`e:${email.toLowerCase()}`);
    this.count(`a:${address}`);
  }

  /** Seconds until `id` may try again; 0 when it may now. */
  private blockedFor(id: string, limit: number): number {
    const window = this.live(id);
    if (!window || window.failures < limit) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.limits.windowMs - this.now()) / 1000));
  }

  private count(id: string): void {
    let window = this.live(id);
    if (!window) {
      window = { startedAt: this.now(), failures: 0 };
      this.windows.set(id, window);
      if (this.windows.size > this.maxEntries) this.prune();
    }
    window.failures += 1;
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
