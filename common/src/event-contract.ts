/**
 * The skill-change event contract as a check: what a consumer accepts from
 * the event log before anything reaches a search engine. The log is an edge
 * (anyone who can write to the broker can publish), so an event is held to
 * what the system of record itself can produce: the admin API's enums and
 * bounds, http(s) links only, a version the item table can hold. The event
 * handed on is built field by field, so a field the contract does not name
 * never reaches the read model.
 *
 * Written out rather than as a joi schema: it runs on every event of every
 * import (a joi schema of this size costs ~17 µs an event, this ~2 µs).
 */
import type { CatalogItemState, ItemDetails, ItemTrust, SkillChangeEvent } from './events';

/**
 * The admin API's bounds on an item (collections-service's admin.schemas.ts;
 * a test there holds the two together). Names: public items ≤ 200, private
 * ones ≤ 120; descriptions: 5,000 and 2,000.
 */
export const ITEM_LIMITS = Object.freeze({
  slug: /^[a-z0-9-]{1,100}$/,
  name: 200,
  description: 5_000,
  category: 100,
  tags: 20,
  tag: 50,
  publisher: 200,
  release: 64,
  license: 200,
  url: 2_000,
  /** an override's note (≤ 1,000) or a scan's summary (≤ 500), docs/trust.md */
  blockedReason: 1_000,
});

/** `items.version` is an `integer` column: no item of the system of record goes past it. */
export const MAX_ITEM_VERSION = 2_147_483_647;

/** The outbox row id (a bigint as text), or an id of the same shape from another producer. */
const EVENT_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO-8601 in UTC to the millisecond, as every producer writes it (`toISOString()`, Postgres `to_char(… 'MS"Z"')`). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const TYPES = new Set(['skill.upserted', 'skill.deleted']);
const ITEM_TYPES = new Set(['skill', 'plugin']);
const STATUSES = new Set(['active', 'draft', 'archived', 'deleted']);
const VISIBILITIES = new Set(['public', 'private']);
const LINK_PROTOCOLS = new Set(['http:', 'https:']);
const VERDICTS = new Set(['clean', 'suspicious', 'malicious', 'unscanned']);

/** Thrown inside the check only; the caller gets `{ ok: false, reason }`. */
class Broken extends Error {}

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown, path: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Broken(`${path} must be an object`);
  return value as Fields;
}

function text(value: unknown, path: string, min: number, max: number): string {
  if (typeof value !== 'string') throw new Broken(`${path} must be a string`);
  if (value.length < min || value.length > max) throw new Broken(`${path} must be ${min} to ${max} characters`);
  return value;
}

function textOrNull(value: unknown, path: string, max: number): string | null {
  return value === null ? null : text(value, path, 1, max);
}

function oneOf<T extends string>(value: unknown, path: string, allowed: ReadonlySet<string>): T {
  if (typeof value !== 'string' || !allowed.has(value))
    throw new Broken(`${path} must be one of ${[...allowed].join(', ')}`);
  return value as T;
}

function matching(value: unknown, path: string, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new Broken(`${path} is not in the expected form`);
  return value;
}

function integer(value: unknown, path: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new Broken(`${path} must be an integer from 0 to ${max}`);
  return value;
}

/** A real instant: 2026-02-30 matches the pattern but does not come back the same from Date. */
function dateTime(value: unknown, path: string): string {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value))
    throw new Broken(`${path} must be an ISO-8601 UTC date-time (YYYY-MM-DDTHH:MM:SS.sssZ)`);
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString() !== value)
    throw new Broken(`${path} is not a real date-time`);
  return value;
}

/** A link as a browser reads it: only http and https, so no `javascript:` or `data:` reaches a page. */
function link(value: unknown, path: string): string | null {
  if (value === null) return null;
  const url = text(value, path, 1, ITEM_LIMITS.url);
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Broken(`${path} must be a URL`);
  }
  if (!LINK_PROTOCOLS.has(protocol)) throw new Broken(`${path} must be an http or https URL`);
  return url;
}

function detailsOf(value: unknown): ItemDetails {
  const d = fieldsOf(value, 'item.details');
  return {
    publisher: textOrNull(d.publisher, 'item.details.publisher', ITEM_LIMITS.publisher),
    version: textOrNull(d.version, 'item.details.version', ITEM_LIMITS.release),
    license: textOrNull(d.license, 'item.details.license', ITEM_LIMITS.license),
    repositoryUrl: link(d.repositoryUrl, 'item.details.repositoryUrl'),
    homepageUrl: link(d.homepageUrl, 'item.details.homepageUrl'),
    downloads: integer(d.downloads, 'item.details.downloads', Number.MAX_SAFE_INTEGER),
  };
}

function trustOf(value: unknown): ItemTrust {
  const t = fieldsOf(value, 'item.trust');
  if (typeof t.publisherVerified !== 'boolean') throw new Broken('item.trust.publisherVerified must be a boolean');
  return {
    latestVersion: textOrNull(t.latestVersion, 'item.trust.latestVersion', ITEM_LIMITS.release),
    verdict: oneOf(t.verdict, 'item.trust.verdict', VERDICTS),
    publisherVerified: t.publisherVerified,
    blockedReason: textOrNull(t.blockedReason, 'item.trust.blockedReason', ITEM_LIMITS.blockedReason),
  };
}

function tagsOf(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Broken('item.tags must be an array');
  if (value.length > ITEM_LIMITS.tags) throw new Broken(`item.tags must hold at most ${ITEM_LIMITS.tags} tags`);
  return value.map((tag, i) => text(tag, `item.tags[${i}]`, 1, ITEM_LIMITS.tag));
}

function itemOf(value: unknown): CatalogItemState {
  const i = fieldsOf(value, 'item');
  const item: CatalogItemState = {
    id: matching(i.id, 'item.id', UUID),
    slug: i.slug === null ? null : matching(i.slug, 'item.slug', ITEM_LIMITS.slug),
    name: text(i.name, 'item.name', 1, ITEM_LIMITS.name),
    description: text(i.description, 'item.description', 0, ITEM_LIMITS.description),
    type: oneOf(i.type, 'item.type', ITEM_TYPES),
    category: textOrNull(i.category, 'item.category', ITEM_LIMITS.category),
    tags: tagsOf(i.tags),
    status: oneOf(i.status, 'item.status', STATUSES),
    visibility: oneOf(i.visibility, 'item.visibility', VISIBILITIES),
    updatedAt: dateTime(i.updatedAt, 'item.updatedAt'),
    version: integer(i.version, 'item.version', MAX_ITEM_VERSION),
  };
  // absent from events written before details existed
  if (i.details !== undefined) item.details = detailsOf(i.details);
  // absent from events written before releases and verdicts existed (read as unscanned, unverified)
  if (i.trust !== undefined) item.trust = trustOf(i.trust);
  return item;
}

function eventOf(value: unknown): SkillChangeEvent {
  const e = fieldsOf(value, 'event');
  const event: SkillChangeEvent = {
    eventId: matching(e.eventId, 'eventId', EVENT_ID),
    type: oneOf(e.type, 'type', TYPES),
    itemId: matching(e.itemId, 'itemId', UUID),
    version: integer(e.version, 'version', MAX_ITEM_VERSION),
    occurredAt: dateTime(e.occurredAt, 'occurredAt'),
    item: itemOf(e.item),
  };
  if (event.item.id !== event.itemId || event.item.version !== event.version) {
    throw new Broken('item.id and item.version must match itemId and version');
  }
  return event;
}

export type ContractCheck = { ok: true; event: SkillChangeEvent } | { ok: false; reason: string };

/**
 * The event `value` holds, with the contract's fields only, or why it is
 * none. Never throws: one bad event must not stall the events behind it.
 */
export function checkSkillChangeEvent(value: unknown): ContractCheck {
  try {
    return { ok: true, event: eventOf(value) };
  } catch (err) {
    if (err instanceof Broken) return { ok: false, reason: `breaks the event contract: ${err.message}` };
    throw err;
  }
}
