/**
 * Events the consumer refuses before they reach a search engine: messages
 * that are not JSON, and events that break the contract (common's
 * checkSkillChangeEvent). Both event logs hand them here instead of to the
 * indexer; catalog-service parks them in its dead-letter store
 * (catalog.dead_letters), where an operator reads why.
 */
export interface RejectedEvent {
  /** the event's own id when it has one, else where it was found (`kafka:<topic>/<partition>@<offset>`, `outbox:<id>`) */
  eventId: string;
  /** the item it names when it names one as text, else '' */
  itemId: string;
  /** what arrived, as storable JSON (storablePayload) */
  payload: unknown;
  reason: string;
}

export interface RejectedEventSink {
  /** resolves once every event is stored: only then may the log move past them */
  reject(group: string, events: readonly RejectedEvent[]): Promise<void>;
}

/** Bytes of a refused message kept for the operator; the rest is cut. */
const KEPT_BYTES = 16_384;

/**
 * What arrived, in a form a jsonb column takes: the parsed JSON when it is
 * small and holds no NUL (Postgres refuses \u0000 in jsonb, and a message
 * that cannot be stored would stall its partition), else base64 of its
 * first bytes.
 */
export function storablePayload(raw: Buffer | string, parsed?: unknown): unknown {
  const bytes = typeof raw === 'string' ? Buffer.from(raw) : raw;
  if (parsed !== undefined && bytes.length <= KEPT_BYTES && !bytes.includes('\\u0000')) return parsed;
  return { base64: bytes.subarray(0, KEPT_BYTES).toString('base64'), bytes: bytes.length };
}

/** `value[field]` when `value` is an object holding a short string there. */
export function textField(value: unknown, field: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[field];
  return typeof found === 'string' && found.length <= 200 ? found : undefined;
}
