/** Postgres error codes we translate in repositories (never leaked to callers). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

function codeOf(err: unknown): string | undefined {
  const e = err as { parent?: { code?: string }; original?: { code?: string }; code?: string };
  return e?.parent?.code ?? e?.original?.code ?? e?.code;
}

export const isUniqueViolation = (err: unknown): boolean => codeOf(err) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (err: unknown): boolean => codeOf(err) === FOREIGN_KEY_VIOLATION;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids; anything else can name no row, so callers answer 404 without a query. */
export const isUuid = (value: string): boolean => UUID.test(value);

const UNREACHABLE_ERRORS = new Set([
  'SequelizeConnectionError',
  'SequelizeConnectionRefusedError',
  'SequelizeConnectionTimedOutError',
  'SequelizeConnectionAcquireTimeoutError',
  'SequelizeHostNotFoundError',
  'SequelizeHostNotReachableError',
]);
/**
 * pg's texts when a connection dies under a query (no SQLSTATE: the server
 * never answered): the socket reset, refused, broken while writing (EPIPE)
 * or timed out, and a pooled client that was closed or broken just before
 * the query ("... is not queryable": a race while the server goes away,
 * which a CI run under load answered as a 500).
 */
const CONNECTION_LOST =
  /Connection terminated|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up|is not queryable/i;

/**
 * The database cannot be reached (down, restarting, pool exhausted): the
 * request may succeed later, so callers answer 503 rather than 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { name?: string; message?: string; parent?: { message?: string; code?: string } };
  if (!e || typeof e !== 'object') return false;
  if (e.name !== undefined && UNREACHABLE_ERRORS.has(e.name)) return true;
  // SQLSTATE class 57P (operator intervention: admin shutdown, crash shutdown, cannot connect now).
  if (e.parent?.code?.startsWith('57P')) return true;
  if (e.name !== 'SequelizeDatabaseError') return false;
  const code = e.parent?.code;
  // No SQLSTATE (the server never answered) or a socket error code, and pg's wording of a lost connection.
  return (
    (code === undefined || !/^(?=.*\d)[0-9A-Z]{5}$/.test(code)) &&
    CONNECTION_LOST.test(e.parent?.message ?? e.message ?? '')
  );
}
