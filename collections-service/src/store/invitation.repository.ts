import { randomUUID } from 'node:crypto';
import { NotFoundError, isForeignKeyViolation } from '@skills/common';
import type { InvitationRecord, NewInvitation } from '../domain/model';
import type { InvitableRole } from '@skills/common/workspace-roles';
import type { InvitationRepository } from '../domain/ports';
import { iso, type Sql } from './sql';

interface InvitationRow {
  id: string;
  workspace_id: string;
  role: InvitableRole;
  email: string | null;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = 'id, workspace_id, role, email, created_by, created_at, expires_at';
/** Pending: neither revoked nor accepted, and not expired by the database's clock. */
const PENDING = 'revoked_at IS NULL AND accepted_at IS NULL AND expires_at > now()';

const toRecord = (row: InvitationRow): InvitationRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  role: row.role,
  email: row.email,
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
});

export class SqlInvitationRepository implements InvitationRepository {
  constructor(private readonly sql: Sql) {}

  async insert(input: NewInvitation): Promise<InvitationRecord> {
    const row = await this.sql
      .one<InvitationRow>(
        `INSERT INTO collections.workspace_invitations (id, workspace_id, role, email, created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [randomUUID(), input.workspaceId, input.role, input.email, input.createdBy, input.expiresAt.toISOString()],
      )
      .catch((err: unknown) => {
        // the workspace went away between the role check and the insert
        if (isForeignKeyViolation(err)) throw new NotFoundError('workspace.notFound', {}, { cause: err });
        throw err;
      });
    if (!row) throw new Error('insert returned no row');
    return toRecord(row);
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('invitations:' || $1))`, [workspaceId]);
  }

  async listPending(workspaceId: string): Promise<InvitationRecord[]> {
    const rows = await this.sql.rows<InvitationRow>(
      `SELECT ${COLUMNS} FROM collections.workspace_invitations WHERE workspace_id = $1 AND ${PENDING}
       ORDER BY created_at DESC, id`,
      [workspaceId],
    );
    return rows.map(toRecord);
  }

  async countPending(workspaceId: string): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.workspace_invitations WHERE workspace_id = $1 AND ${PENDING}`,
      [workspaceId],
    );
    return row?.n ?? 0;
  }

  async lockPending(id: string): Promise<InvitationRecord | null> {
    const row = await this.sql.one<InvitationRow>(
      `SELECT ${COLUMNS} FROM collections.workspace_invitations WHERE id = $1 AND ${PENDING} FOR UPDATE`,
      [id],
    );
    return row && toRecord(row);
  }

  async findPending(id: string): Promise<InvitationRecord | null> {
    const row = await this.sql.one<InvitationRow>(
      `SELECT ${COLUMNS} FROM collections.workspace_invitations WHERE id = $1 AND ${PENDING}`,
      [id],
    );
    return row && toRecord(row);
  }

  async revoke(id: string): Promise<void> {
    await this.sql.run('UPDATE collections.workspace_invitations SET revoked_at = now() WHERE id = $1', [id]);
  }

  revokePendingCreatedBy(workspaceId: string, accountId: string): Promise<number> {
    // the pending index narrows to the workspace, which holds at most MAX_PENDING_INVITATIONS of them
    return this.sql.run(
      `UPDATE collections.workspace_invitations SET revoked_at = now() WHERE workspace_id = $1 AND created_by = $2 AND ${PENDING}`,
      [workspaceId, accountId],
    );
  }

  async markAccepted(id: string, accountId: string): Promise<void> {
    await this.sql.run(
      'UPDATE collections.workspace_invitations SET accepted_by = $2, accepted_at = now() WHERE id = $1',
      [id, accountId],
    );
  }
}
