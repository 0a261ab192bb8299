/**
 * The workspace policy (docs/governance.md "Policy"): any member reads it,
 * owners and admins replace it; each replacement records `policy.changed`
 * in its own transaction. The gateway reads the compiled form for search.
 */
import { NotAllowedError, NotFoundError, isUuid, type SearchPolicy } from '@skills/common';
import { mayGovern } from '@skills/common/workspace-roles';
import { searchPolicyOf, type PolicyRecord, type WorkspacePolicy } from './policy';
import type { CollectionsStore } from './ports';
import { policyRecordOf, teamAccess } from './team-scope';

export class PolicyService {
  constructor(private readonly store: CollectionsStore) {}

  async get(accountId: string, workspaceId: string): Promise<PolicyRecord> {
    await teamAccess(this.store.repos, accountId, workspaceId, 'read');
    return policyRecordOf(this.store.repos, workspaceId);
  }

  put(accountId: string, workspaceId: string, policy: WorkspacePolicy): Promise<PolicyRecord> {
    return this.store.transaction(async (repos) => {
      const role = await teamAccess(repos, accountId, workspaceId, 'read');
      if (!mayGovern(role)) throw new NotAllowedError('workspace.roleTooLow');
      const record = await repos.policies.put(workspaceId, policy, accountId);
      await repos.workspaceEvents.record({ workspaceId, type: 'policy.changed', data: { policy: record.policy } });
      return record;
    });
  }

  /** The compiled policy for a member's searches; a non-member learns nothing: 404 as for an unknown workspace. */
  async searchPolicy(accountId: string, workspaceId: string): Promise<SearchPolicy> {
    const repos = this.store.repos;
    if (!isUuid(workspaceId) || (await repos.workspaces.roleOf(workspaceId, accountId)) === null) {
      throw new NotFoundError('workspace.notFound');
    }
    return searchPolicyOf(workspaceId, (await policyRecordOf(repos, workspaceId)).policy);
  }
}
