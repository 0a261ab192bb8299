/**
 * Updating the pins of a team collection and exporting its lockfile
 * (docs/governance.md "Drift and updating pins", "Lockfile").
 */
import { NotFoundError } from '@skills/common';
import { buildLockfile, type Lockfile } from './lockfile';
import type { CollectionWithEntries } from './model';
import { planPinUpdates, type PinPlan } from './pin-plan';
import type { CollectionsStore } from './ports';
import { collectionDetailInWorkspace, collectionInWorkspace, governedDetail, policyOf, teamAccess } from './team-scope';
import { collectionChanged } from './team-collection.service';

export interface PinsUpdateRequest {
  dryRun: boolean;
  /** only these entries; all when absent */
  slugs?: string[];
}

export interface PinsUpdateResult extends PinPlan {
  dryRun: boolean;
  /** the collection after the run (as it is, for a dry run) */
  collection: CollectionWithEntries;
}

export class CollectionPinsService {
  constructor(private readonly store: CollectionsStore) {}

  /** A real run moves every planned pin in one transaction and records `collection.changed`; a dry run writes nothing. */
  updatePins(
    accountId: string,
    workspaceId: string,
    id: string,
    request: PinsUpdateRequest,
  ): Promise<PinsUpdateResult> {
    return this.store.transaction(async (repos) => {
      await teamAccess(repos, accountId, workspaceId, 'update');
      const collection = await collectionInWorkspace(repos, workspaceId, id, !request.dryRun);
      const policy = await policyOf(repos, workspaceId);
      const current = await repos.collections.withEntries(collection);
      const itemIds = current.skills.flatMap((e) => (e.visibility === 'public' ? [e.itemId] : []));
      const plan = planPinUpdates(policy, current.skills, await repos.releases.listForItems(itemIds), request.slugs);
      let after = current;
      if (!request.dryRun && plan.changes.length > 0) {
        for (const change of plan.changes) await repos.collections.setPin(collection.id, change.itemId, change.to);
        after = await repos.collections.update(collection.id, {});
        await collectionChanged(repos, collection, 'pins-updated');
      }
      return { dryRun: request.dryRun, ...plan, collection: await governedDetail(repos, policy, after) };
    });
  }

  async lockfile(accountId: string, workspaceId: string, id: string): Promise<Lockfile> {
    const repos = this.store.repos;
    await teamAccess(repos, accountId, workspaceId, 'read');
    const collection = await collectionDetailInWorkspace(repos, workspaceId, id);
    const workspace = await repos.workspaces.findById(workspaceId);
    if (!workspace) throw new NotFoundError('workspace.notFound');
    const policy = await policyOf(repos, workspaceId);
    return buildLockfile(
      { id: workspace.id, name: workspace.name },
      await governedDetail(repos, policy, collection),
      policy,
    );
  }
}
