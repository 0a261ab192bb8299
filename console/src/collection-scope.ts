/**
 * One set of collection calls for both kinds of collection page: the
 * caller's own (`/me`) or a workspace's, chosen by the page's scope.
 */
import { client, type Collection, type CollectionPatch, type Pagination } from './api';

/** Where a collection lives: the caller's own, or a workspace's. */
export type CollectionScope = { kind: 'personal' } | { kind: 'team'; workspaceId: string };

/** Pages of 50, the most a list page shows at once. */
const PAGE = 50;

export function listCollections(
  scope: CollectionScope,
  page = 1,
): Promise<{ collections: Collection[]; pagination: Pagination }> {
  const params = { page, limit: PAGE };
  return scope.kind === 'personal'
    ? client.listMyCollectionsPage(params)
    : client.listWorkspaceCollectionsPage(scope.workspaceId, params);
}

export function getCollection(scope: CollectionScope, id: string): Promise<Collection> {
  return scope.kind === 'personal' ? client.getMyCollection(id) : client.getWorkspaceCollection(scope.workspaceId, id);
}

export function createCollection(
  scope: CollectionScope,
  input: { name: string; description?: string },
): Promise<Collection> {
  return scope.kind === 'personal'
    ? client.createMyCollection(input)
    : client.createWorkspaceCollection(scope.workspaceId, input);
}

export function updateCollection(scope: CollectionScope, id: string, patch: CollectionPatch): Promise<Collection> {
  return scope.kind === 'personal'
    ? client.updateMyCollection(id, patch)
    : client.updateWorkspaceCollection(scope.workspaceId, id, patch);
}

export function deleteCollection(scope: CollectionScope, id: string): Promise<void> {
  return scope.kind === 'personal'
    ? client.deleteMyCollection(id)
    : client.deleteWorkspaceCollection(scope.workspaceId, id);
}
