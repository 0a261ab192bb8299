/**
 * Scanner credentials (docs/trust.md "Scanner credentials"): an operator
 * issues one per scanner; it may record verdicts and nothing else. Like an
 * API key it is a prefixed random token, shown once and stored as its
 * SHA-256. Pure rules and the store's port; no I/O here.
 */
import { randomBytes } from 'node:crypto';

export const SCANNER_TOKEN_PREFIX = 'sks_';
const TOKEN_RANDOM_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);
const TOKEN_PATTERN = /^sks_[0-9A-Za-z]{40}$/;
const BEARER_PATTERN = /^Bearer +(\S+)$/i;

/** 1–64 of a-z, 0-9 and `-`: the name verdicts carry, unique among active scanners. */
export const SCANNER_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;

/** A scanner as operators see it: never its token nor the token's hash. */
export interface ScannerSummary {
  id: string;
  name: string;
  /** ISO-8601 */
  createdAt: string;
  /** ISO-8601; null while the credential is in force */
  revokedAt: string | null;
}

/** What authentication needs of a scanner: found by the hash of its token. */
export interface StoredScanner {
  scannerId: string;
  name: string;
  tokenHash: Buffer;
  revoked: boolean;
}

/** `gateway.scanners`; bound to the caller's transaction when made inside one. */
export interface ScannerRepository {
  /** throws ConflictError scanner.nameTaken when an active scanner has the name */
  insert(name: string, tokenHash: Buffer): Promise<ScannerSummary>;
  /** oldest first, revoked ones included */
  list(): Promise<ScannerSummary[]>;
  findByHash(tokenHash: Buffer): Promise<StoredScanner | undefined>;
  /** sets revoked_at once; the scanner as it is now, or undefined when unknown */
  revoke(id: string): Promise<ScannerSummary | undefined>;
}

/** A new token: `sks_` + 40 base62 characters (≈238 bits) from the CSPRNG. */
export function generateScannerToken(random: (size: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < TOKEN_RANDOM_LENGTH) {
    for (const byte of random(TOKEN_RANDOM_LENGTH * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % BASE62.length];
      if (out.length === TOKEN_RANDOM_LENGTH) break;
    }
  }
  return SCANNER_TOKEN_PREFIX + out;
}

/**
 * Whether the Authorization header offers a scanner credential at all
 * (`Bearer sks_…`, well formed or not): such a caller is answered as a
 * scanner, never tried as an API key.
 */
export function offersScannerToken(header: string | undefined): boolean {
  return BEARER_PATTERN.exec(header ?? '')?.[1]?.startsWith(SCANNER_TOKEN_PREFIX) === true;
}

/** The token of a `Bearer sks_…` header when well formed, else undefined (garbage never reaches the store). */
export function parseScannerBearer(header: string | undefined): string | undefined {
  const token = BEARER_PATTERN.exec(header ?? '')?.[1];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}
