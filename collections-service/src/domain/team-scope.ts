/**
 * The steps every team-collection operation shares: the caller's access to
 * the workspace, the collection within it, the policy in force and the
 * collection governed by it. Each runs on the repositories it is given, so
 * inside or outside the caller's transaction.
 */
import { NotFoundError, isUuid } from '@skills/common';
import { governCollection } from './governance';
import type { WorkspaceRole } from '@skills/common/workspace-roles';
import type { CollectionRecord, CollectionWithEntries } from './model';
import { DEFAULT_POLICY, type PolicyRecord, type WorkspacePolicy } from './policy';
import type { Repositories } from './ports';
import { assertWorkspaceAccess, type WorkspaceAction } from './workspace-access';

/** The caller's role in the workspace, null when not a member; 404 for an unknown workspace. One query. */
export async function workspaceRole(
  repos: Repositories,
  accountId: string,
  workspaceId: string,
): Promise<WorkspaceRole | null> {
  const access = isUuid(workspaceId) ? await repos.workspaces.accessOf(workspaceId, accountId) : null;
  if (!access) throw new NotFoundError('workspace.notFound');
  return access.role;
}

/** 404 for an unknown workspace, 403 when the caller's role does not allow `action`; the role. */
export async function teamAccess(
  repos: Repositories,
  accountId: string,
  workspaceId: string,
  action: WorkspaceAction,
): Promise<WorkspaceRole> {
  const role = await workspaceRole(repos, accountId, workspaceId);
  assertWorkspaceAccess(role, action);
  return role;
}

/** The collection if it belongs to the workspace (row-locked when `lock`); another workspace's is a missing one. */
export function collectionInWorkspace(
  repos: Repositories,
  workspaceId: string,
  id: string,
  lock: boolean,
): Promise<CollectionRecord> {
  return inWorkspace(workspaceId, id, (collectionId) =>
    lock ? repos.collections.lockById(collectionId) : repos.collections.findById(collectionId),
  );
}

/** The collection with every entry, in one query, if it belongs to the workspace (a read). */
export function collectionDetailInWorkspace(
  repos: Repositories,
  workspaceId: string,
  id: string,
): Promise<CollectionWithEntries> {
  return inWorkspace(workspaceId, id, (collectionId) => repos.collections.findWithEntries(collectionId));
}

async function inWorkspace<T extends CollectionRecord>(
  workspaceId: string,
  id: string,
  find: (id: string) => Promise<T | null>,
): Promise<T> {
  if (!isUuid(id)) throw new NotFoundError('collection.notFound');
  const collection = await find(id);
  if (!collection || collection.workspaceId !== workspaceId) throw new NotFoundError('collection.notFound');
  return collection;
}

/** The stored policy, or the defaults with no author. */
export async function policyRecordOf(repos: Repositories, workspaceId: string): Promise<PolicyRecord> {
  return (
    (await repos.policies.find(workspaceId)) ?? { policy: { ...DEFAULT_POLICY }, updatedAt: null, updatedBy: null }
  );
}

export async function policyOf(repos: Repositories, workspaceId: string): Promise<WorkspacePolicy> {
  return (await policyRecordOf(repos, workspaceId)).policy;
}

/**
 * Collections with each entry's compliance and drift: one query for the
 * releases of every entry shown, not one per entry.
 */
export async function governed(
  repos: Repositories,
  policy: WorkspacePolicy,
  collections: CollectionWithEntries[],
): Promise<CollectionWithEntries[]> {
  const itemIds = [
    ...new Set(collections.flatMap((c) => c.skills.flatMap((e) => (e.visibility === 'public' ? [e.itemId] : [])))),
  ];
  const releases = await repos.releases.listForItems(itemIds);
  return collections.map((c) => governCollection(policy, c, releases));
}

/** The collection with every entry (read here unless given), governed. */
export async function governedDetail(
  repos: Repositories,
  policy: WorkspacePolicy,
  collection: CollectionRecord | CollectionWithEntries,
): Promise<CollectionWithEntries> {
  const withEntries = 'skills' in collection ? collection : await repos.collections.withEntries(collection);
  const [detail] = await governed(repos, policy, [withEntries]);
  if (!detail) throw new NotFoundError('collection.notFound');
  return detail;
}
