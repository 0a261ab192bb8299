import { createHash } from 'node:crypto';
import {
  DISPLAY_PREFIX_LENGTH,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedKey,
  parseBearer,
  secretsEqual,
} from '../../src/domain/keys/api-key';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it('makes sk_live_ followed by 32 base62 characters', () => {
    for (let i = 0; i < 200; i += 1) expect(generateApiKey()).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 5_000 }, () => generateApiKey()));
    expect(keys.size).toBe(5_000);
  });

  it('uses every base62 character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i += 1) {
      for (const c of generateApiKey().slice(8)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 128,000 characters over 62 symbols: ~2,065 each; a modulo bias would put
    // the first 8 symbols about 25 % above the rest.
    expect(counts.size).toBe(62);
    const expected = (4_000 * 32) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.12);
  });

  it('drops random bytes that would bias the alphabet instead of folding them', () => {
    // 248..255 would map to 0..7 under a plain modulo; they must be skipped.
    let call = 0;
    const random = (size: number): Buffer => {
      call += 1;
      return call === 1 ? Buffer.alloc(size, 250) : Buffer.alloc(size, 61);
    };
    expect(generateApiKey(random)).toBe(`sk_live_${'z'.repeat(32)}`);
    expect(call).toBe(2);
  });

  it('maps byte values to the whole alphabet', () => {
    const bytes = Buffer.from(Array.from({ length: 64 }, (_, i) => i % 62));
    expect(generateApiKey(() => bytes)).toBe(`sk_live_${BASE62.slice(0, 32)}`);
  });
});

describe('hashApiKey and displayPrefix', () => {
  it('hashes with SHA-256 into 32 bytes', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toEqual(createHash('sha256').update(key).digest());
    expect(hashApiKey(key)).toHaveLength(32);
  });

  it('keeps the first 12 characters for display', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, DISPLAY_PREFIX_LENGTH));
    expect(displayPrefix(key)).toMatch(/^sk_live_[0-9A-Za-z]{4}$/);
  });
});

describe('parseBearer', () => {
  const key = `sk_live_${'a1B2'.repeat(8)}`;

  it.each([
    ['the standard form', `Bearer ${key}`],
    ['a lower-case scheme (schemes are case-insensitive)', `bearer ${key}`],
    ['several spaces after the scheme', `Bearer   ${key}`],
  ])('accepts %s', (_name, header) => {
    expect(parseBearer(header)).toBe(key);
  });

  it.each([
    ['an absent header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['another scheme', `Basic ${key}`],
    ['no scheme', key],
    ['no space', `Bearer${key}`],
    ['two tokens', `Bearer ${key} ${key}`],
    ['a key one character short', `Bearer ${key.slice(0, -1)}`],
    ['a key one character long', `Bearer ${key}x`],
    ['a test key prefix', `Bearer ${key.replace('live', 'test')}`],
    ['a non-base62 character', `Bearer ${key.slice(0, -1)}-`],
    ['a tab instead of a space', `Bearer\t${key}`],
  ])('refuses %s', (_name, header) => {
    expect(parseBearer(header)).toBeUndefined();
  });

  it('agrees with isWellFormedKey on generated keys', () => {
    const fresh = generateApiKey();
    expect(isWellFormedKey(fresh)).toBe(true);
    expect(parseBearer(`Bearer ${fresh}`)).toBe(fresh);
  });
});

describe('secretsEqual', () => {
  it('is true only for identical secrets, whatever their lengths', () => {
    expect(secretsEqual('a'.repeat(40), 'a'.repeat(40))).toBe(true);
    expect(secretsEqual('a'.repeat(40), `${'a'.repeat(39)}b`)).toBe(false);
    expect(secretsEqual('short', 'a'.repeat(40))).toBe(false);
    expect(secretsEqual('', 'a'.repeat(40))).toBe(false);
  });
});
