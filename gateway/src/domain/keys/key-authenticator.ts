/**
 * Turns an Authorization header into the account principal of its key:
 * absent, malformed, unknown, revoked or expired → 401 auth.invalidKey; a
 * plan without API access → 403 auth.planWithoutApi; a key without the
 * scope the route needs → 403 auth.missingScope naming it. Resolved keys are cached
 * briefly (see KeyCache); `forgetKey` / `forgetAccount` make a local revoke
 * or plan change visible on the next request. A key in use is re-read in the
 * background during the last quarter of its cache life, and concurrent
 * misses share one read, so requests do not queue on the database each time
 * an entry expires (under load that was a latency spike every second).
 * Unknown keys are remembered in a small cache of their own: a flood of
 * made-up keys then evicts only other made-up keys, never a known one.
 */
import { timingSafeEqual } from 'node:crypto';
import { AuthenticationError, NotAllowedError, type Logger, type Principal } from '@skills/common';
import { hashApiKey, parseBearer } from './api-key';
import { planAllowsApi, type KeyLookup, type StoredKey } from '../accounts/account';
import { KeyCache } from './key-cache';
import { grants, type Scope } from './scopes';

/**
 * An account's principal as the gateway holds it. `workspaceId` is the
 * key's binding (docs/governance.md "Policy for every client"): the gateway
 * turns it into `searchPolicy` and never signs it as such (signable()).
 */
export type AccountPrincipal = Extract<Principal, { kind: 'account' }> & { workspaceId?: string };

/** What a service is handed: the principal without the gateway's own binding. */
export function signable(principal: Principal | AccountPrincipal): Principal {
  if (principal.kind !== 'account' || !('workspaceId' in principal)) return principal;
  const { workspaceId: _bound, ...signed } = principal;
  return signed;
}

export interface KeyAuthenticatorOptions {
  keys: KeyLookup;
  logger: Logger;
  cacheTtlMs?: number;
  /** known keys kept (least recently used dropped first) */
  cacheMaxEntries?: number;
  /** unknown keys remembered, apart from the known ones */
  negativeCacheMaxEntries?: number;
  /** a key's last_used_at is written at most once per this interval */
  touchIntervalMs?: number;
  now?: () => number;
}

export interface AuthenticateOptions {
  /** what the route needs; a key made before scopes holds every one */
  scope?: Scope;
  /**
   * Runs (and may throw) before anything but a key found in the cache of
   * known keys is answered: a malformed header, a key known to be unknown, a
   * key about to be read from the store. Known keys never wait for it, so a
   * check of the client there (AuthFailureGuard) costs the clients with a
   * working key nothing.
   */
  beforeUnknown?: () => Promise<void>;
}

export class KeyAuthenticator {
  /** hash (hex) → stored key */
  private readonly cache: KeyCache<StoredKey>;
  /** hash (hex) of keys the store does not know */
  private readonly unknown: KeyCache<true>;
  /** keyId → when this process last wrote its last_used_at */
  private readonly touched = new Map<string, number>();
  private readonly touchIntervalMs: number;
  private readonly now: () => number;
  /** lookups answered from the cache / by the store, since start (exported as metrics) */
  private readonly stats = { hits: 0, misses: 0 };
  private readonly ttlMs: number;
  /** hash (hex) → the store read in flight for it */
  private readonly reads = new Map<string, Promise<StoredKey | null>>();
  /** moved by every local invalidation: a read begun before it must not cache what it found */
  private invalidations = 0;

  constructor(private readonly options: KeyAuthenticatorOptions) {
    this.now = options.now ?? Date.now;
    this.touchIntervalMs = options.touchIntervalMs ?? 60_000;
    this.ttlMs = options.cacheTtlMs ?? 1_000;
    this.cache = new KeyCache({ ttlMs: this.ttlMs, maxEntries: options.cacheMaxEntries, now: this.now });
    this.unknown = new KeyCache({
      ttlMs: this.ttlMs,
      maxEntries: options.negativeCacheMaxEntries ?? 1_000,
      now: this.now,
    });
  }

  async authenticate(authorization: string | undefined, options: AuthenticateOptions = {}): Promise<AccountPrincipal> {
    const key = parseBearer(authorization);
    if (key === undefined) {
      await options.beforeUnknown?.();
      throw new AuthenticationError('auth.invalidKey');
    }
    const hash = hashApiKey(key);
    return this.accept(hash, await this.lookup(hash, options.beforeUnknown), options.scope);
  }

  private accept(hash: Buffer, stored: StoredKey | undefined, scope: Scope | undefined): AccountPrincipal {
    // The store matched on the hash already; comparing again in constant time
    // keeps a cache or index bug from ever accepting another key.
    if (!stored || stored.revoked || !timingSafeEqual(stored.keyHash, hash)) {
      throw new AuthenticationError('auth.invalidKey');
    }
    // An expired key reads as revoked (the contract's 401 text); the cached expiry
    // needs no re-read, so it holds on every replica at the very instant.
    if (stored.expiresAt !== null && stored.expiresAt <= this.now()) throw new AuthenticationError('auth.invalidKey');
    if (!planAllowsApi(stored.plan)) throw new NotAllowedError('auth.planWithoutApi');
    if (scope !== undefined && !grants(stored.scopes, scope)) throw new NotAllowedError('auth.missingScope', { scope });
    this.recordUse(stored.keyId);
    const principal: AccountPrincipal = {
      kind: 'account',
      accountId: stored.accountId,
      plan: stored.plan,
      keyId: stored.keyId,
    };
    if (stored.workspaceId) principal.workspaceId = stored.workspaceId;
    return principal;
  }

  /** Key lookups answered from the caches (hits) or by the database (misses) since start. */
  cacheStats(): { hits: number; misses: number } {
    return { ...this.stats };
  }

  /** A key was revoked here: refuse it from the next request on. */
  forgetKey(keyId: string): void {
    this.forget((entry) => entry.keyId === keyId);
  }

  /** An account's plan changed here: re-read its keys on the next request. */
  forgetAccount(accountId: string): void {
    this.forget((entry) => entry.accountId === accountId);
  }

  private forget(matches: (entry: StoredKey) => boolean): void {
    this.invalidations += 1;
    this.reads.clear();
    this.cache.invalidate(matches);
  }

  private async lookup(hash: Buffer, beforeUnknown?: () => Promise<void>): Promise<StoredKey | undefined> {
    const id = hash.toString('hex');
    const cached = this.cache.fresh(id);
    if (cached !== undefined) {
      this.stats.hits += 1;
      if (cached.remainingMs < this.ttlMs / 4) {
        this.read(id, hash).catch((err: unknown) =>
          this.options.logger.warn({ err }, 'api key refresh failed; the entry expires as usual'),
        );
      }
      return cached.value;
    }
    await beforeUnknown?.();
    if (this.unknown.get(id)) {
      this.stats.hits += 1;
      return undefined;
    }
    this.stats.misses += 1;
    return (await this.read(id, hash)) ?? undefined;
  }

  /** One store read per key at a time; its answer is cached unless a local change happened meanwhile. */
  private read(id: string, hash: Buffer): Promise<StoredKey | null> {
    const inFlight = this.reads.get(id);
    if (inFlight) return inFlight;
    const startedAt = this.invalidations;
    const read = this.options.keys.findByHash(hash).then((stored) => {
      if (this.invalidations === startedAt) {
        if (stored) this.cache.set(id, stored);
        else this.unknown.set(id, true);
      }
      return stored ?? null;
    });
    this.reads.set(id, read);
    const done = () => {
      if (this.reads.get(id) === read) this.reads.delete(id);
    };
    read.then(done, done);
    return read;
  }

  /** Fire-and-forget, throttled: a request never waits on this write. */
  private recordUse(keyId: string): void {
    const now = this.now();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < this.touchIntervalMs) return;
    this.touched.set(keyId, now);
    if (this.touched.size > 10_000) this.pruneTouched(now);
    this.options.keys.touch(keyId).catch((err: unknown) => {
      this.options.logger.error({ err, keyId }, 'could not record api key use');
    });
  }

  private pruneTouched(now: number): void {
    for (const [id, at] of this.touched) if (now - at >= this.touchIntervalMs) this.touched.delete(id);
  }
}
