/**
 * How a replica tells a running reindex from one whose process died. The
 * index a reindex builds carries the alias `<alias>-reindex` (the marker
 * every apply looks for) and a heartbeat in its mapping's `_meta`, renewed
 * while the reindex runs. A marker whose heartbeat stopped is abandoned: its
 * index serves nobody, blocks every later reindex and costs every apply a
 * second write, so whoever sees it first deletes it.
 * `_meta` can be updated on an existing index with the update mapping API:
 * https://elastic.co/guide/en/elasticsearch/reference/8.11/mapping-meta-field.html
 */

/** How often a running reindex renews its heartbeat. */
export const REINDEX_HEARTBEAT_MS = 10_000;
/** Six missed heartbeats: room for a slow cluster and for clock skew between replicas. */
export const REINDEX_STALE_AFTER_MS = 60_000;

export interface HeartbeatMeta {
  reindexHeartbeatAt: string;
}

export function heartbeatMeta(now: Date): HeartbeatMeta {
  return { reindexHeartbeatAt: now.toISOString() };
}

/** The part of `GET /<alias>-reindex/_mapping` this reads. */
export type MarkerMappings = Record<string, { mappings?: { _meta?: Partial<HeartbeatMeta> } }>;

/**
 * Indices behind the marker whose heartbeat is older than `staleAfterMs`.
 * No heartbeat at all counts as abandoned: only a reindex started before
 * heartbeats existed lacks one, and its process is long gone or about to be.
 */
export function abandonedIndices(mappings: MarkerMappings, now: Date, staleAfterMs: number): string[] {
  return Object.entries(mappings)
    .filter(([, entry]) => {
      const beat = Date.parse(entry.mappings?._meta?.reindexHeartbeatAt ?? '');
      return Number.isNaN(beat) || now.getTime() - beat > staleAfterMs;
    })
    .map(([index]) => index);
}
