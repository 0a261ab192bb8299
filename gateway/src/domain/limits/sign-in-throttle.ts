/**
 * Slows down password guessing, sign-up floods and link requests, per
 * client address (the one the gateway derives behind a trusted proxy,
 * http/client-address.ts; an IPv6 client by its /64, domain/limits/address-key.ts),
 * without letting anyone lock a chosen account out:
 *
 * - an address has `perAddress` unsuccessful sign-ins per window, then each
 *   further try from it waits twice as long as the one before (1 s, 2 s,
 *   4 s …, at most `addressMaxDelayMs`): slowed, never locked, since a whole
 *   office may share the address; a successful sign-in gives its attempt back;
 * - one email from one address gets `freeFailures` failures in a row, then
 *   each further try waits twice as long as the one before (1 s, 2 s, 4 s …,
 *   at most the window): the guessing of one account's password. Other
 *   addresses are not slowed: the account's owner signs in while an attacker
 *   elsewhere is being held back;
 * - an address has `signUpsPerAddress` sign-ups and `oidcStartsPerAddress`
 *   OpenID Connect flows started per window;
 * - password-reset requests and address verifications: `linksPerAddress`
 *   per address, and reset requests for one email `linksPerEmail` from one
 *   address (each may send a mail to that inbox; one address asking cannot
 *   keep another's reset from it).
 *
 * Every attempt is counted when it starts, before the password is verified,
 * atomically in the store: a parallel burst cannot slip past the limits while
 * the hashes run, on one replica or across replicas sharing Redis.
 */
import { RateLimitError } from '@skills/common';
import { addressKey } from './address-key';
import type { ThrottleStore } from './throttle-store';
import { MemoryThrottleStore } from '../../store/memory-throttle.store';

export interface ThrottleLimits {
  /** sign-in attempts not (yet) successful, per address and window, before the address's progressive delay starts */
  perAddress: number;
  /** the longest wait of an address past `perAddress` */
  addressMaxDelayMs: number;
  /** failures in a row of one email from one address before the progressive delay starts */
  freeFailures: number;
  /** sign-ups per address and window */
  signUpsPerAddress: number;
  /** password-reset requests and address verifications per address and window */
  linksPerAddress: number;
  /** password-reset requests per email, per address and window */
  linksPerEmail: number;
  /** OpenID Connect flows started (sign-in or linking) per address and window: each stores a row until it expires */
  oidcStartsPerAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  perAddress: 20,
  addressMaxDelayMs: 60_000,
  freeFailures: 3,
  signUpsPerAddress: 10,
  linksPerAddress: 10,
  linksPerEmail: 3,
  oidcStartsPerAddress: 30,
  windowMs: 15 * 60_000,
};

/** A sign-in attempt under way: hand it back to `succeeded` when the password was right. */
export interface Attempt {
  pair: string;
  address: string;
}

export class SignInThrottle {
  private readonly limits: ThrottleLimits;
  private readonly store: ThrottleStore;

  constructor(limits: Partial<ThrottleLimits> = {}, options: { store?: ThrottleStore; now?: () => number } = {}) {
    this.limits = { ...DEFAULT_THROTTLE, ...limits };
    this.store = options.store ?? new MemoryThrottleStore({ now: options.now });
  }

  /** Counts a sign-in attempt now, or throws 429 with Retry-After when the address or the pair must wait. */
  async beginSignIn(email: string, address: string): Promise<Attempt> {
    const client = addressKey(address);
    const attempt = { pair: `p:${email.toLowerCase()}\u0000${client}`, address: `a:${client}` };
    const seconds = await this.store.begin(
      [
        {
          id: attempt.address,
          limit: 0,
          freeAttempts: this.limits.perAddress,
          maxDelayMs: this.limits.addressMaxDelayMs,
        },
        { id: attempt.pair, limit: 0, freeAttempts: this.limits.freeFailures },
      ],
      this.limits.windowMs,
    );
    if (seconds > 0) throw new RateLimitError('signIn.throttled', seconds);
    return attempt;
  }

  /** The password was right: the pair starts afresh and the address gets its attempt back. */
  succeeded(attempt: Attempt): Promise<void> {
    return this.store.forgive(attempt.pair, attempt.address, this.limits.windowMs);
  }

  /** Counts a sign-up now, or throws 429 with Retry-After when the address has used its share. */
  async beginSignUp(address: string): Promise<void> {
    const seconds = await this.store.begin(
      [{ id: `s:${addressKey(address)}`, limit: this.limits.signUpsPerAddress, freeAttempts: 0 }],
      this.limits.windowMs,
    );
    if (seconds > 0) throw new RateLimitError('signUp.throttled', seconds);
  }

  /**
   * Counts a password-reset request (with its email) or an address
   * verification (without), or throws 429 with Retry-After. Counted whether
   * or not the email has an account, so the answer tells nothing about it.
   */
  async beginLinkRequest(address: string, email?: string): Promise<void> {
    const client = addressKey(address);
    const counters = [{ id: `l:${client}`, limit: this.limits.linksPerAddress, freeAttempts: 0 }];
    if (email !== undefined)
      counters.push({
        id: `e:${email.toLowerCase()}\u0000${client}`,
        limit: this.limits.linksPerEmail,
        freeAttempts: 0,
      });
    const seconds = await this.store.begin(counters, this.limits.windowMs);
    if (seconds > 0) throw new RateLimitError('links.throttled', seconds);
  }

  /** Counts an OpenID Connect flow started now, or throws 429 with Retry-After when the address has used its share. */
  async beginOidcStart(address: string): Promise<void> {
    const seconds = await this.store.begin(
      [{ id: `o:${addressKey(address)}`, limit: this.limits.oidcStartsPerAddress, freeAttempts: 0 }],
      this.limits.windowMs,
    );
    if (seconds > 0) throw new RateLimitError('oidc.throttled', seconds);
  }

  close(): Promise<void> {
    return this.store.close?.() ?? Promise.resolve();
  }
}
