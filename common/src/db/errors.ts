/** Postgres error codes we translate in repositories (never leaked to callers). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const INVALID_TEXT_REPRESENTATION = '22P02';

function codeOf(err: unknown): string | undefined {
  const e = err as { parent?: { code?: string }; original?: { code?: string }; code?: string };
  return e?.parent?.code ?? e?.original?.code ?? e?.code;
}

export const isUniqueViolation = (err: unknown): boolean => codeOf(err) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (err: unknown): boolean => codeOf(err) === FOREIGN_KEY_VIOLATION;
export const isInvalidTextRepresentation = (err: unknown): boolean => codeOf(err) === INVALID_TEXT_REPRESENTATION;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids; anything else can name no row, so callers answer 404 without a query. */
export const isUuid = (value: string): boolean => UUID.test(value);
