import { randomUUID } from 'node:crypto';
import { NotFoundError, isForeignKeyViolation, type PageRequest } from '@skills/common';
import { WORKSPACE_ROLES, type WorkspaceRole } from '@skills/common/workspace-roles';
import type { MemberRecord, MemberWorkspace, Workspace, WorkspaceMember } from '../domain/model';
import type { WorkspaceRepository } from '../domain/ports';
import { iso, type Sql } from './sql';

interface MemberWorkspaceRow {
  id: string;
  name: string;
  role: WorkspaceRole;
  member_count: number;
  created_at: Date;
}

const toMemberWorkspace = (row: MemberWorkspaceRow): MemberWorkspace => ({
  id: row.id,
  name: row.name,
  role: row.role,
  memberCount: row.member_count,
  createdAt: iso(row.created_at),
});

interface MemberRow {
  account_id: string;
  role: WorkspaceRole;
  created_at: Date;
}

const MEMBER_COLUMNS = 'account_id, role, created_at';
const toMember = (row: MemberRow): MemberRecord => ({
  accountId: row.account_id,
  role: row.role,
  joinedAt: iso(row.created_at),
});

/** A workspace joined with one membership `m`, and how many members it has. */
const MEMBER_WORKSPACE = `SELECT w.id, w.name, m.role, w.created_at,
       (SELECT count(*)::int FROM collections.workspace_members a WHERE a.workspace_id = w.id) AS member_count
  FROM collections.workspace_members m JOIN collections.workspaces w ON w.id = m.workspace_id`;

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

  async findById(id: string): Promise<Workspace | null> {
    return this.sql.one<Workspace>('SELECT id, name FROM collections.workspaces WHERE id = $1', [id]);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.sql.one('SELECT 1 AS found FROM collections.workspaces WHERE id = $1', [id])) !== null;
  }

  async lock(id: string): Promise<boolean> {
    return (
      (await this.sql.one('SELECT 1 AS found FROM collections.workspaces WHERE id = $1 FOR UPDATE', [id])) !== null
    );
  }

  async countOwners(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  async removeMember(workspaceId: string, accountId: string): Promise<void> {
    await this.sql.run('DELETE FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2', [
      workspaceId,
      accountId,
    ]);
  }

  async accessOf(workspaceId: string, accountId: string): Promise<{ role: WorkspaceRole | null } | null> {
    const row = await this.sql.one<{ role: WorkspaceRole | null }>(
      `SELECT m.role FROM collections.workspaces w
       LEFT JOIN collections.workspace_members m ON m.workspace_id = w.id AND m.account_id = $2
       WHERE w.id = $1`,
      [workspaceId, accountId],
    );
    return row && { role: row.role };
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

  async forMember(workspaceId: string, accountId: string): Promise<MemberWorkspace | null> {
    const row = await this.sql.one<MemberWorkspaceRow>(
      `${MEMBER_WORKSPACE} WHERE m.workspace_id = $1 AND m.account_id = $2`,
      [workspaceId, accountId],
    );
    return row && toMemberWorkspace(row);
  }

  /** Oldest first, then by id: pages neither repeat nor skip while nothing is created. */
  async listForMember(accountId: string, { page, limit }: PageRequest): Promise<MemberWorkspace[]> {
    const rows = await this.sql.rows<MemberWorkspaceRow>(
      `${MEMBER_WORKSPACE} WHERE m.account_id = $1 ORDER BY w.created_at, w.id LIMIT $2 OFFSET $3`,
      [accountId, limit, (page - 1) * limit],
    );
    return rows.map(toMemberWorkspace);
  }

  async countForMember(accountId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.workspace_members WHERE account_id = $1',
      [accountId],
    );
    return row?.n ?? 0;
  }

  async countOwnedBy(accountId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.workspace_members WHERE account_id = $1 AND role = 'owner'`,
      [accountId],
    );
    return row?.n ?? 0;
  }

  async listMembers(workspaceId: string, { page, limit }: PageRequest): Promise<MemberRecord[]> {
    const rows = await this.sql.rows<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM collections.workspace_members WHERE workspace_id = $1
       ORDER BY array_position($4::text[], role), created_at, account_id
       LIMIT $2 OFFSET $3`,
      [workspaceId, limit, (page - 1) * limit, WORKSPACE_ROLES],
    );
    return rows.map(toMember);
  }

  async findMember(workspaceId: string, accountId: string): Promise<MemberRecord | null> {
    const row = await this.sql.one<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2`,
      [workspaceId, accountId],
    );
    return row && toMember(row);
  }

  async countMembers(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM collections.workspace_members WHERE workspace_id = $1',
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  async lockCreator(accountId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('workspaces:' || $1))`, [accountId]);
  }
}
