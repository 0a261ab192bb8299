/**
 * How errors reach a log line. A database error carries the statement and
 * its values: Sequelize's `sql` (with values inlined by replacements) and
 * `parameters` (the bound ones), on the error and again on its `original`
 * / `parent` (pg's error), whose `detail` ("Failing row contains (…)") and
 * `internalQuery` hold row values too. Those are emails and password
 * hashes; the code, constraint, table and message are what an operator
 * needs, so only the value-bearing fields are blanked, at every depth.
 */
import pino from 'pino';

const VALUE_BEARING = new Set(['sql', 'parameters', 'detail', 'internalQuery']);
/** deep enough for error → original → cause chains; deeper is not an error's shape */
const MAX_DEPTH = 6;

const REDACTED = '[redacted]';
/** what pino's serializer makes of an error inherits from this */
const SERIALIZED_ERROR = Object.getPrototypeOf(pino.stdSerializers.err(new Error('probe'))) as unknown;

/** pino's error serializer, then the value-bearing fields blanked. */
function serializeError(err: unknown): unknown {
  return scrub(pino.stdSerializers.err(err as Error), 0);
}

/** A copy (never the live error's own objects) with the value-bearing fields blanked. */
function scrub(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  if (value instanceof Error) return scrub(pino.stdSerializers.err(value), depth);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null && proto !== SERIALIZED_ERROR) return value; // a Date, a Buffer: no statement inside
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = VALUE_BEARING.has(key) ? REDACTED : scrub(item, depth + 1);
  return out;
}

/** The serializers every logger uses: errors under the keys the code logs them with. */
export const LOG_SERIALIZERS = { err: serializeError, error: serializeError, cause: serializeError };
