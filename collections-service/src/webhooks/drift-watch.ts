/**
 * `collection.drifted`: for every team collection holding an item of the
 * batch, the entry's drift causes as the collection view computes them
 * (team-scope.ts, under the workspace's policy) are compared with the causes
 * already announced (`webhook_drift_seen`). A cause the entry gained is
 * announced; a cause it lost is forgotten, so gaining it again is announced
 * again. A replayed item event finds every cause announced and writes nothing.
 */
import { governedDetail, policyOf } from '../domain/team-scope';
import type { Drift } from '../domain/model';
import { repositories } from '../store/repositories';
import type { Sql } from '../store/sql';
import { SqlWorkspaceEventStore } from '../store/workspace-event.repository';

/** A cause as announced for one pinned version: the same cause of a new pin is new. */
const causeKey = (version: string | null, drift: Drift): string => `${version ?? ''}|${JSON.stringify(drift)}`;

async function seenCauses(sql: Sql, collectionId: string, itemId: string): Promise<Set<string>> {
  const rows = await sql.rows<{ cause: string }>(
    'SELECT cause FROM collections.webhook_drift_seen WHERE collection_id = $1 AND item_id = $2',
    [collectionId, itemId],
  );
  return new Set(rows.map((r) => r.cause));
}

async function rememberCauses(sql: Sql, collectionId: string, itemId: string, causes: string[]): Promise<void> {
  await sql.run(
    'DELETE FROM collections.webhook_drift_seen WHERE collection_id = $1 AND item_id = $2 AND NOT (cause = ANY ($3::text[]))',
    [collectionId, itemId, causes],
  );
  await sql.run(
    `INSERT INTO collections.webhook_drift_seen (collection_id, item_id, cause) SELECT $1, $2, unnest($3::text[])
     ON CONFLICT DO NOTHING`,
    [collectionId, itemId, causes],
  );
}

/** Announces the drift causes gained by the entries of `itemIds` in every team collection. */
export async function announceDrift(sql: Sql, itemIds: string[]): Promise<void> {
  const repos = repositories(sql);
  const holding = await sql.rows<{ id: string }>(
    `SELECT DISTINCT e.collection_id AS id FROM collections.collection_entries e
     JOIN collections.collections c ON c.id = e.collection_id AND c.workspace_id IS NOT NULL
     WHERE e.item_id = ANY ($1::uuid[]) ORDER BY 1`,
    [itemIds],
  );
  const items = new Set(itemIds);
  for (const { id } of holding) {
    const collection = await repos.collections.findWithEntries(id);
    if (!collection?.workspaceId) continue;
    const detail = await governedDetail(repos, await policyOf(repos, collection.workspaceId), collection);
    for (const entry of detail.skills) {
      if (entry.visibility !== 'public' || !items.has(entry.itemId)) continue;
      const drift = entry.drift ?? [];
      const version = entry.pin?.version ?? null;
      const seen = await seenCauses(sql, id, entry.itemId);
      const gained = drift.filter((d) => !seen.has(causeKey(version, d)));
      if (gained.length > 0) {
        await new SqlWorkspaceEventStore(sql).record({
          workspaceId: collection.workspaceId,
          type: 'collection.drifted',
          data: { collection: { id, name: collection.name }, slug: entry.slug, version, drift: gained },
        });
      }
      await rememberCauses(
        sql,
        id,
        entry.itemId,
        drift.map((d) => causeKey(version, d)),
      );
    }
  }
}
