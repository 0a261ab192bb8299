import { randomUUID } from 'node:crypto';
import type { Sql } from '../store/sql';

/** Appends an event the webhook readers derived (verdict changes, drift) to `workspace_events`, in the reader's transaction. */
export async function writeWorkspaceEvent(sql: Sql, workspaceId: string, type: 'release.verdict_changed' | 'collection.drifted', data: object): Promise<void> {
  await sql.run('INSERT INTO collections.workspace_events (id, workspace_id, type, data) VALUES ($1, $2, $3, $4::jsonb)', [
    randomUUID(),
    workspaceId,
    type,
    JSON.stringify(data),
  ]);
}
