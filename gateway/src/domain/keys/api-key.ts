/**
 * API key rules: format, generation, hashing, display prefix and the strict
 * parsing of `Authorization: Bearer <key>`. Pure functions, no I/O.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'sk_live_';
export const KEY_RANDOM_LENGTH = 32;
/** Characters of the key kept for display: `sk_live_` plus 4 random ones. */
export const DISPLAY_PREFIX_LENGTH = 12;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);
const KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;
/** RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces before the token. */
const BEARER_PATTERN = /^Bearer +(\S+)$/i;

/** A new key: `sk_live_` + 32 base62 characters (≈190 bits) from the CSPRNG. */
export function generateApiKey(random: (size: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < KEY_RANDOM_LENGTH) {
    for (const byte of random(KEY_RANDOM_LENGTH * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % BASE62.length];
      if (out.length === KEY_RANDOM_LENGTH) break;
    }
  }
  return KEY_PREFIX + out;
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** SHA-256 of the key: what the database stores and is searched by. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/**
 * The key of a `Bearer` Authorization header, or undefined when the header is
 * absent, uses another scheme, carries extra parts or a token that is not a
 * well-formed key (so garbage never reaches the database).
 */
export function parseBearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = BEARER_PATTERN.exec(header);
  const token = match?.[1];
  return token !== undefined && isWellFormedKey(token) ? token : undefined;
}

/** Constant-time equality of two secrets: compares their SHA-256 digests. */
export function secretsEqual(given: string | Buffer, expected: string | Buffer): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
