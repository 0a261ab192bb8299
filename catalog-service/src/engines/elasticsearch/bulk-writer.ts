/**
 * Writes item states with the bulk helper of the client the engine made.
 * Every document carries the item's version with `version_type: external`,
 * so Elasticsearch refuses an older state (409) whatever order states
 * arrive in: a 409 is a stale state, skipped and counted.
 * Bulk API: https://elastic.co/docs/api/doc/elasticsearch/operation/operation-bulk
 * Client helpers: https://elastic.co/docs/reference/elasticsearch/clients/javascript/client-helpers
 */
import type { Client } from '@elastic/elasticsearch';
import type { CatalogItemState } from '@skills/common';
import type { ApplyResult } from '../search-engine';
import { isSearchable } from '../../domain/indexed-state';
import { documentVersion, toDocument } from './item-document';
import { delayFor, type RetryPolicy } from './retry';

/** One item Elasticsearch refused for a reason other than a stale version. */
export interface WriteFailure {
  id: string;
  status: number;
  reason: string;
}

/** A bulk write left items unwritten; the others were written. */
export class ElasticsearchWriteError extends Error {
  constructor(
    readonly index: string,
    readonly failures: WriteFailure[],
  ) {
    super(
      `Elasticsearch refused ${failures.length} item(s) in ${index}: ${failures
        .slice(0, 5)
        .map((f) => `${f.id} (${f.status} ${f.reason})`)
        .join(', ')}`,
    );
    this.name = 'ElasticsearchWriteError';
  }
}

export interface WriteOptions {
  /**
   * Refuse (404) instead of creating an index when `index` is an alias that
   * is gone: without it, a write through a missing alias makes a plain
   * index of that name with dynamic mappings, which hides the alias for good.
   * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-bulk (require_alias)
   */
  requireAlias: boolean;
  /**
   * Answer only once the written documents are searchable: `wait_for` the
   * next scheduled refresh (up to `index.refresh_interval`, 1 s), or `now`,
   * refreshing the shard at once (worth it for a batch large enough to be a
   * segment of its own; a trickle of small ones would make tiny segments).
   * https://elastic.co/docs/reference/elasticsearch/rest-apis/refresh-parameter
   */
  searchableBy?: 'wait_for' | 'now';
  /**
   * The same items were sent before and the answer was lost: a 409 may be
   * this write's own earlier landing. Those items' stored versions are read
   * back, and an item stored at its own version counts as written.
   */
  repeated?: boolean;
  /** the vectors of the items that have one (by item id), written with them */
  vectors?: ReadonlyMap<string, Float32Array>;
}

export interface WriteOutcome extends ApplyResult {
  failures: WriteFailure[];
}

/** An item the cluster refused for its own state (overloaded 429, failing 5xx): worth sending again. */
export function isTransientFailure(failure: WriteFailure): boolean {
  return failure.status === 429 || failure.status >= 500;
}

/**
 * Writes the items, sending again with backoff those refused with a 429 or a
 * 5xx (a rejected write queue, a shard being relocated): while the cluster
 * answers, such an item is delayed, never a failure for the dead-letter
 * store. What still fails transiently after the retries is returned, and the
 * engine reports it as the cluster being unavailable.
 */
export async function writeBulk(
  client: Client,
  index: string,
  items: CatalogItemState[],
  retry: RetryPolicy,
  options: WriteOptions,
): Promise<WriteOutcome> {
  let outcome = await bulkOnce(client, index, items, options);
  for (let attempt = 0; attempt < retry.retries; attempt++) {
    const again = new Set(outcome.failures.filter(isTransientFailure).map((f) => f.id));
    if (again.size === 0) break;
    await new Promise((resolve) => setTimeout(resolve, delayFor(retry, attempt)));
    // a 5xx item may have been written before the error: a 409 then may be its own landing
    const retried = await bulkOnce(
      client,
      index,
      items.filter((item) => again.has(item.id)),
      { ...options, repeated: true },
    );
    outcome = {
      applied: outcome.applied + retried.applied,
      stale: outcome.stale + retried.stale,
      failures: [...outcome.failures.filter((f) => !again.has(f.id)), ...retried.failures],
    };
  }
  return outcome;
}

/**
 * One bulk-helper run, without the helper's own retries: every refused item
 * reaches onDrop, a 409 as stale, anything else as a failure (a 429 or 5xx
 * one writeBulk sends again).
 */
async function bulkOnce(
  client: Client,
  index: string,
  items: CatalogItemState[],
  options: WriteOptions,
): Promise<WriteOutcome> {
  if (items.length === 0) return { applied: 0, stale: 0, failures: [] };
  const conflicts: CatalogItemState[] = [];
  const failures: WriteFailure[] = [];
  const stats = await client.helpers.bulk<CatalogItemState>({
    datasource: items,
    onDocument: (item) => {
      const vector = vectorOf(item, options);
      return [
        {
          index: {
            _index: index,
            _id: item.id,
            version: documentVersion(item.version, vector !== undefined),
            version_type: 'external',
          },
        },
        toDocument(item, vector),
      ];
    },
    onDrop: (dropped) => {
      if (dropped.status === 409) conflicts.push(dropped.document);
      else
        failures.push({
          id: dropped.document.id,
          status: dropped.status,
          reason: dropped.error?.reason ?? dropped.error?.type ?? 'rejected',
        });
    },
    // The helper would resend 429s itself, `retries` times each, inside writeBulk's own resends
    // (also `retries` times): a cluster refusing writes got (retries + 1)² bulks instead of
    // retries + 1, with no backoff between the helper's. writeBulk alone resends, with backoff.
    retries: 0,
    concurrency: 1,
    ...(options.requireAlias ? { require_alias: true } : {}),
    ...(options.searchableBy
      ? { refresh: options.searchableBy === 'now' ? ('true' as const) : ('wait_for' as const) }
      : {}),
  });
  const landed = options.repeated ? await landedEarlier(client, index, conflicts, options) : 0;
  return { applied: stats.successful + landed, stale: conflicts.length - landed, failures };
}

/** How many of the conflicting items are stored at exactly their own version (written by an earlier attempt). */
async function landedEarlier(
  client: Client,
  index: string,
  conflicts: CatalogItemState[],
  options: WriteOptions,
): Promise<number> {
  if (conflicts.length === 0) return 0;
  const res = await client.mget({ index, ids: conflicts.map((item) => item.id), _source: false });
  const stored = new Map(res.docs.map((doc) => [doc._id, 'found' in doc && doc.found ? doc._version : undefined]));
  return conflicts.filter(
    (item) => stored.get(item.id) === documentVersion(item.version, vectorOf(item, options) !== undefined),
  ).length;
}

/** The vector written with an item: a searchable item's, when one was given. */
function vectorOf(item: CatalogItemState, options: WriteOptions): Float32Array | undefined {
  return options.vectors && isSearchable(item) ? options.vectors.get(item.id) : undefined;
}
