/**
 * Turns `Authorization: Bearer sks_…` into the scanner principal: malformed,
 * unknown or revoked → 401 auth.invalidScannerToken. Resolved tokens are
 * cached as briefly as API keys (KEY_CACHE_TTL_MS bounds how long another
 * replica's revoke goes unseen); `forget` makes a revoke here apply on the
 * next request. Unknown tokens are remembered apart, as for keys: a flood
 * of made-up tokens evicts only made-up tokens, never a scanner's.
 */
import { timingSafeEqual } from 'node:crypto';
import { AuthenticationError, type Principal } from '@skills/common';
import { hashApiKey } from '../keys/api-key';
import { KeyCache } from '../keys/key-cache';
import { parseScannerBearer, type ScannerRepository, type StoredScanner } from './scanner';

export type ScannerPrincipal = Extract<Principal, { kind: 'scanner' }>;

export interface ScannerAuthenticatorOptions {
  scanners: Pick<ScannerRepository, 'findByHash'>;
  cacheTtlMs?: number;
  now?: () => number;
}

export interface ScannerAuthenticateOptions {
  /** runs (and may throw) before anything but a cached token is answered: the failed-authentication budget */
  beforeUnknown?: () => Promise<void>;
}

export class ScannerAuthenticator {
  /** hash (hex) → stored scanner */
  private readonly cache: KeyCache<StoredScanner>;
  /** hash (hex) of tokens the store does not know */
  private readonly unknown: KeyCache<true>;
  /** moved by every local revoke: a read begun before it must not cache what it found */
  private invalidations = 0;

  constructor(private readonly options: ScannerAuthenticatorOptions) {
    const ttlMs = options.cacheTtlMs ?? 1_000;
    this.cache = new KeyCache({ ttlMs, maxEntries: 1_000, now: options.now });
    this.unknown = new KeyCache({ ttlMs, maxEntries: 1_000, now: options.now });
  }

  async authenticate(
    authorization: string | undefined,
    options: ScannerAuthenticateOptions = {},
  ): Promise<ScannerPrincipal> {
    const token = parseScannerBearer(authorization);
    if (token === undefined) {
      await options.beforeUnknown?.();
      throw new AuthenticationError('auth.invalidScannerToken');
    }
    const hash = hashApiKey(token);
    const stored = await this.lookup(hash, options.beforeUnknown);
    // The store matched on the hash already; comparing again in constant time
    // keeps a cache or index bug from ever accepting another token.
    if (!stored || stored.revoked || !timingSafeEqual(stored.tokenHash, hash))
      throw new AuthenticationError('auth.invalidScannerToken');
    return { kind: 'scanner', scannerId: stored.scannerId, name: stored.name };
  }

  /** A scanner was revoked here: refuse its token from the next request on. */
  forget(scannerId: string): void {
    this.invalidations += 1;
    this.cache.invalidate((entry) => entry.scannerId === scannerId);
  }

  private async lookup(hash: Buffer, beforeUnknown?: () => Promise<void>): Promise<StoredScanner | undefined> {
    const id = hash.toString('hex');
    const cached = this.cache.get(id);
    if (cached) return cached;
    await beforeUnknown?.();
    if (this.unknown.get(id)) return undefined;
    const startedAt = this.invalidations;
    const stored = await this.options.scanners.findByHash(hash);
    if (this.invalidations === startedAt) {
      if (stored) this.cache.set(id, stored);
      else this.unknown.set(id, true);
    }
    return stored;
  }
}
