import { randomUUID } from 'node:crypto';
import { NotFoundError, isForeignKeyViolation } from '@skills/common';
import type { Workspace, WorkspaceMember, WorkspaceRole } from '../domain/model';
import type { WorkspaceRepository } from '../domain/ports';
import type { Sql } from './sql';

export class SqlWorkspaceRepository implements WorkspaceRepository {
  constructor(private readonly sql: Sql) {}

  async create(name: string): Promise<Workspace> {
    const row = await this.sql.one<Workspace>(
      'INSERT INTO collections.workspaces (id, name) VALUES ($1, $2) RETURNING id, name',
      [randomUUID(), name],
    );
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.sql.one('SELECT 1 AS found FROM collections.workspaces WHERE id = $1', [id])) !== null;
  }

  async lock(id: string): Promise<boolean> {
    return (await this.sql.one('SELECT 1 AS found FROM collections.workspaces WHERE id = $1 FOR UPDATE', [id])) !== null;
  }

  async countOwners(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  async removeMember(workspaceId: string, accountId: string): Promise<void> {
    await this.sql.run('DELETE FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2', [workspaceId, accountId]);
  }

  async roleOf(workspaceId: string, accountId: string): Promise<WorkspaceRole | null> {
    const row = await this.sql.one<{ role: WorkspaceRole }>(
      'SELECT role FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2',
      [workspaceId, accountId],
    );
    return row?.role ?? null;
  }

  async setMember(member: WorkspaceMember): Promise<WorkspaceMember> {
    try {
      await this.sql.run(
        `INSERT INTO collections.workspace_members (workspace_id, account_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (workspace_id, account_id) DO UPDATE SET role = EXCLUDED.role, updated_at = now()`,
        [member.workspaceId, member.accountId, member.role],
      );
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new NotFoundError('workspace.notFound', {}, { cause: err });
      throw err;
    }
    return { ...member };
  }
}
