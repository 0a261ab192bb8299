/**
 * Turns an Authorization header into the account principal of its key:
 * absent, malformed, unknown or revoked → 401 auth.invalidKey; a plan
 * without API access → 403 auth.planWithoutApi. Resolved keys are cached
 * briefly (see KeyCache); `forgetKey` / `forgetAccount` make a local revoke
 * or plan change visible on the next request.
 */
import { timingSafeEqual } from 'node:crypto';
import { AuthenticationError, NotAllowedError, type Logger, type Principal } from '@skills/common';
import { hashApiKey, parseBearer } from './api-key';
import { planAllowsApi, type KeyStore, type StoredKey } from './account';
import { KeyCache } from './key-cache';

export type AccountPrincipal = Extract<Principal, { kind: 'account' }>;

export interface KeyAuthenticatorOptions {
  keys: KeyStore;
  logger: Logger;
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** a key's last_used_at is written at most once per this interval */
  touchIntervalMs?: number;
  now?: () => number;
}

export class KeyAuthenticator {
  /** hash (hex) → stored key, or null for "no such key" */
  private readonly cache: KeyCache<StoredKey | null>;
  /** keyId → when this process last wrote its last_used_at */
  private readonly touched = new Map<string, number>();
  private readonly touchIntervalMs: number;
  private readonly now: () => number;
  /** lookups answered from the cache / by the store, since start (exported as metrics) */
  private readonly stats = { hits: 0, misses: 0 };

  constructor(private readonly options: KeyAuthenticatorOptions) {
    this.now = options.now ?? Date.now;
    this.touchIntervalMs = options.touchIntervalMs ?? 60_000;
    this.cache = new KeyCache({ ttlMs: options.cacheTtlMs ?? 1_000, maxEntries: options.cacheMaxEntries, now: this.now });
  }

  async authenticate(authorization: string | undefined): Promise<AccountPrincipal> {
    const key = parseBearer(authorization);
    if (key === undefined) throw new AuthenticationError('auth.invalidKey');
    const hash = hashApiKey(key);
    const stored = await this.lookup(hash);
    // The store matched on the hash already; comparing again in constant time
    // keeps a cache or index bug from ever accepting another key.
    if (!stored || stored.revoked || !timingSafeEqual(stored.keyHash, hash)) {
      throw new AuthenticationError('auth.invalidKey');
    }
    if (!planAllowsApi(stored.plan)) throw new NotAllowedError('auth.planWithoutApi');
    this.recordUse(stored.keyId);
    return { kind: 'account', accountId: stored.accountId, plan: stored.plan, keyId: stored.keyId };
  }

  /** Key lookups answered from the cache (hits) or by the database (misses) since start. */
  cacheStats(): { hits: number; misses: number } {
    return { ...this.stats };
  }

  /** A key was revoked here: refuse it from the next request on. */
  forgetKey(keyId: string): void {
    this.cache.invalidate((entry) => entry?.keyId === keyId);
  }

  /** An account's plan changed here: re-read its keys on the next request. */
  forgetAccount(accountId: string): void {
    this.cache.invalidate((entry) => entry?.accountId === accountId);
  }

  private async lookup(hash: Buffer): Promise<StoredKey | undefined> {
    const id = hash.toString('hex');
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.stats.hits += 1;
      return cached ?? undefined;
    }
    this.stats.misses += 1;
    const stored = await this.options.keys.findByHash(hash);
    this.cache.set(id, stored ?? null);
    return stored;
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
