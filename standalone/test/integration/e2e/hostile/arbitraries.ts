/**
 * Generators of hostile input for the property-based suite: strings that
 * break naive code (NUL, lone surrogates, huge, SQL and Elasticsearch
 * query-DSL fragments, prototype-pollution keys) and JSON values built from
 * them (wrong types, nulls, nesting, arrays).
 */
import fc from 'fast-check';

/** Fragments aimed at string-built SQL, the Postgres tsquery parser and Elasticsearch query DSL. */
export const INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE collections.items; --",
  '"; DELETE FROM gateway.api_keys; --',
  "1' UNION SELECT key_hash FROM gateway.api_keys --",
  '$$; select pg_sleep(0); $$',
  '\\',
  "''''",
  'a & b | !c <-> d:*',
  '!!!:*&|',
  '{"match_all":{}}',
  '{"query":{"script":{"script":"ctx._source"}}}',
  '*:*',
  'name:(a OR b) AND _exists_:description',
  '/.*/',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '%2e%2e%2f',
];

export const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '$where',
  '$gt',
  'isAdmin',
];

const loneSurrogate = fc.constantFrom('\ud800', '\udfff', 'a\ud83dz', '\udc00\ud800');
const controls = fc.constantFrom('\u0000', 'a\u0000b', '\u0007\u001b[31m', '\r\n', '\u2028\u2029', '\ufeff', '\u202e');

/** Strings short enough for a URL or a header (Node refuses request heads over 16 kB before any of our code runs). */
const shortHostile = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: loneSurrogate },
    { weight: 2, arbitrary: controls },
    { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '-1',
        '0',
        '1e309',
        'NaN',
        'null',
        'true',
        '[]',
        '{}',
        '00000000-0000-0000-0000-000000000000',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 121, max: 2_000 }).map((n) => 'x'.repeat(n)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  );

/** For path segments, query strings and headers. */
export const urlString: fc.Arbitrary<string> = shortHostile();

/** Any string our validators may meet, weighted toward the nasty ones; for bodies. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: shortHostile() },
  // Over every length limit (names 120, descriptions 2,000–5,000), under the 100 kB body limit.
  { weight: 1, arbitrary: fc.integer({ min: 5_001, max: 30_000 }).map((n) => 'y'.repeat(n)) },
);

/** JSON values of every type, nested, with hostile strings and keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), hostileString), tie('value')), { maxLength: 4 })
    // Object.fromEntries would set a real prototype for "__proto__"; defineProperty keeps it an own key, as JSON.parse does.
    .map((entries) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    }),
})).value;

/** A body for an endpoint that expects `fields`: their names with hostile values, plus hostile extras. */
export function hostileBody(fields: readonly string[]): fc.Arbitrary<unknown> {
  const shaped = fc
    .tuple(
      fc.subarray([...fields]),
      fc.array(hostileJson, { minLength: fields.length, maxLength: fields.length }),
      fc.array(
        fc.tuple(fc.constantFrom(...POLLUTION_KEYS, 'extra', 'id', 'accountId', 'ownerAccountId'), hostileJson),
        { maxLength: 2 },
      ),
    )
    .map(([chosen, values, extras]) => {
      const out: Record<string, unknown> = {};
      chosen.forEach((k, i) => (out[k] = values[i]));
      for (const [k, v] of extras)
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: hostileJson });
}

/**
 * A path segment: percent-encoded, lone surrogates as the invalid UTF-8
 * bytes a raw client would send (encodeURIComponent refuses them).
 */
export function pathSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    out += code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(ch);
  }
  return out === '' ? '%20' : out;
}

/** A query string of hostile pairs (keys repeated so qs builds arrays and objects too). */
export const hostileQuery = (names: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...names),
          fc.constantFrom(...names).map((n) => `${n}[]`),
          fc.constantFrom(...names).map((n) => `${n}[__proto__]`),
          urlString,
        ),
        urlString,
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${pathSegment(k)}=${pathSegment(v)}`).join('&'));

/** Header values fetch can send (latin-1, no CR/LF/NUL). */
const headerValue = urlString.map((s) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '').slice(0, 300));

export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'accept-language': fc.oneof(headerValue, fc.constantFrom('fr', 'fr-CA;q=0.9, en;q=0.1', '*', 'xx', ';q=')),
    'x-request-id': headerValue,
    accept: fc.oneof(headerValue, fc.constantFrom('text/html', 'application/xml')),
    'if-none-match': headerValue,
    'idempotency-key': headerValue,
  },
  { requiredKeys: [] },
);

/** Content types a body may claim to be. */
export const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'application/x-ndjson',
    ),
  },
);
