import type { ItemType } from '@skills/common';
import type { WorkspacePolicyRepository } from '../domain/governance-ports';
import type { MinimumVerdict, PolicyRecord, WorkspacePolicy } from '../domain/policy';
import { iso, type Sql } from './sql';

interface PolicyRow {
  minimum_verdict: MinimumVerdict;
  verified_publishers_only: boolean;
  allowed_publishers: string[] | null;
  allowed_licenses: string[] | null;
  allowed_types: ItemType[] | null;
  denied_slugs: string[];
  updated_at: Date | string;
  updated_by: string;
}

const COLUMNS =
  'minimum_verdict, verified_publishers_only, allowed_publishers, allowed_licenses, allowed_types, denied_slugs, updated_at, updated_by';

function toRecord(row: PolicyRow): PolicyRecord {
  return {
    policy: {
      minimumVerdict: row.minimum_verdict,
      verifiedPublishersOnly: row.verified_publishers_only,
      allowedPublishers: row.allowed_publishers,
      allowedLicenses: row.allowed_licenses,
      allowedTypes: row.allowed_types,
      deniedSlugs: row.denied_slugs,
    },
    updatedAt: iso(row.updated_at),
    updatedBy: row.updated_by,
  };
}

export class SqlWorkspacePolicyRepository implements WorkspacePolicyRepository {
  constructor(private readonly sql: Sql) {}

  async find(workspaceId: string): Promise<PolicyRecord | null> {
    const row = await this.sql.one<PolicyRow>(
      `SELECT ${COLUMNS} FROM collections.workspace_policies WHERE workspace_id = $1`,
      [workspaceId],
    );
    return row && toRecord(row);
  }

  async put(workspaceId: string, p: WorkspacePolicy, updatedBy: string): Promise<PolicyRecord> {
    const row = await this.sql.one<PolicyRow>(
      `INSERT INTO collections.workspace_policies
         (workspace_id, minimum_verdict, verified_publishers_only, allowed_publishers, allowed_licenses, allowed_types, denied_slugs, updated_by)
       VALUES ($1, $2, $3, $4::text[], $5::text[], $6::text[], $7::text[], $8)
       ON CONFLICT (workspace_id) DO UPDATE SET
         minimum_verdict = EXCLUDED.minimum_verdict, verified_publishers_only = EXCLUDED.verified_publishers_only,
         allowed_publishers = EXCLUDED.allowed_publishers, allowed_licenses = EXCLUDED.allowed_licenses,
         allowed_types = EXCLUDED.allowed_types, denied_slugs = EXCLUDED.denied_slugs,
         updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING ${COLUMNS}`,
      [
        workspaceId,
        p.minimumVerdict,
        p.verifiedPublishersOnly,
        p.allowedPublishers,
        p.allowedLicenses,
        p.allowedTypes,
        p.deniedSlugs,
        updatedBy,
      ],
    );
    if (!row) throw new Error('upsert returned no row');
    return toRecord(row);
  }
}
