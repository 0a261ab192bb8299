/**
 * A budget of failed authentications per client address, checked before
 * any credential is looked up. A request that fails authentication (no key,
 * a malformed, unknown or revoked key, a wrong admin token) is counted
 * against its address over a sliding window; once the address has spent
 * its budget, it is refused with 429 before its credential costs a database
 * read, except for credentials known good without one (a key in the
 * authenticator's cache, the admin token). So a flood of guessed keys from
 * one address stops reaching the database and the key cache, while a
 * client with a working key behind the same address keeps working.
 */
import { addressKey } from './address-key';
import { retryAfterMs, type SlidingWindowStore } from './sliding-window';

export interface AuthFailureGuardOptions {
  store: SlidingWindowStore;
  /** failed authentications allowed per address and window; 0 turns the guard off */
  limit: number;
  windowMs?: number;
}

export class AuthFailureGuard {
  private readonly windowMs: number;

  constructor(private readonly options: AuthFailureGuardOptions) {
    this.windowMs = options.windowMs ?? 60_000;
  }

  get enabled(): boolean {
    return this.options.limit > 0;
  }

  /** Whole seconds until `address` may try again, or undefined while it is within its budget. */
  async blockedFor(address: string): Promise<number | undefined> {
    if (!this.enabled) return undefined;
    const { counts, elapsedMs } = await this.options.store.peek(this.key(address), this.windowMs);
    const wait = retryAfterMs(counts, elapsedMs, this.windowMs, this.options.limit);
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : undefined;
  }

  /** Counts one failed authentication of `address`. */
  async recordFailure(address: string): Promise<void> {
    if (this.enabled) await this.options.store.take(this.key(address), this.options.limit, this.windowMs);
  }

  /** An IPv6 client counts by its /64 (address-key.ts). */
  private key(address: string): string {
    return `auth-failures:${addressKey(address)}`;
  }
}
