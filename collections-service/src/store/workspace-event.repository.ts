import { randomUUID } from 'node:crypto';
import type { WorkspaceEvent, WorkspaceEventStore } from '../domain/governance-ports';
import type { Sql } from './sql';

/** The workspace event log in Postgres (migration 011); rows are only ever added. */
export class SqlWorkspaceEventStore implements WorkspaceEventStore {
  constructor(private readonly sql: Sql) {}

  async record(event: WorkspaceEvent): Promise<string> {
    const id = randomUUID();
    await this.sql.run(
      'INSERT INTO collections.workspace_events (id, workspace_id, type, data) VALUES ($1, $2, $3, $4::jsonb)',
      [id, event.workspaceId, event.type, JSON.stringify(event.data)],
    );
    return id;
  }
}
