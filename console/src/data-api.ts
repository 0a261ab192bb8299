/**
 * The catalog, collections and workspaces as the console reads and changes
 * them: the public API's operations, called with the session (api.ts). The
 * types mirror the OpenAPI document; the rules stay with the services.
 */
import { call } from './api';

export type ItemType = 'skill' | 'plugin';
export type Sort = 'relevance' | 'popular' | 'newest' | 'name';
export type Role = 'owner' | 'admin' | 'member' | 'viewer';
export type InvitedRole = Exclude<Role, 'owner'>;

export interface Details {
  publisher: string | null;
  version: string | null;
  license: string | null;
  repositoryUrl: string | null;
  homepageUrl: string | null;
  downloads: number;
}

export interface CatalogItem extends Details {
  id: string;
  slug: string;
  name: string;
  description: string;
  type: ItemType;
  category: string;
  tags: string[];
  updatedAt: string;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore: boolean;
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface SearchAnswer {
  skills: CatalogItem[];
  pagination: Pagination;
  facets?: { category?: FacetValue[]; type?: FacetValue[] };
  suggestion?: { q: string; total: number };
}

export interface SearchQuery {
  q?: string;
  category?: string;
  type?: string;
  tags?: string[];
  sort?: Sort;
  page?: number;
}

export interface PublicEntry extends Details {
  visibility: 'public';
  slug: string;
  name: string;
  type: ItemType;
  category: string | null;
  status: 'active' | 'draft' | 'archived' | 'deleted';
}

export interface PrivateEntry {
  visibility: 'private';
  id: string;
  name: string;
  description: string;
}

export type Entry = PublicEntry | PrivateEntry;

export interface Collection {
  id: string;
  name: string;
  description: string;
  skillCount: number;
  skills: Entry[];
  createdAt: string;
  updatedAt: string;
  /** team collections only */
  workspaceId?: string;
  createdBy?: string;
}

export interface Workspace {
  id: string;
  name: string;
  role: Role;
  memberCount: number;
  createdAt: string;
}

export interface Member {
  accountId: string;
  email: string | null;
  name: string | null;
  role: Role;
  joinedAt: string;
}

export interface Invitation {
  id: string;
  workspaceId: string;
  role: InvitedRole;
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

export interface CreatedInvitation extends Invitation {
  url: string;
  mailed: boolean;
}

export interface PrivateSkill {
  id: string;
  name: string;
  description: string;
}

export interface CollectionPatch {
  name?: string;
  description?: string;
  skillSlug?: string;
  removeSkillSlug?: string;
  privateSkillId?: string;
  removePrivateSkillId?: string;
}

const seg = encodeURIComponent;

function searchPath(query: SearchQuery): string {
  const params = new URLSearchParams({ facets: 'category,type', limit: '20' });
  if (query.q) params.set('q', query.q);
  if (query.category) params.set('category', query.category);
  if (query.type) params.set('type', query.type);
  for (const tag of query.tags ?? []) params.append('tag', tag);
  if (query.sort) params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return `/api/v1/skills?${params}`;
}

/** Where a collection lives: the caller's own, or a workspace's. */
export type CollectionScope = { kind: 'personal' } | { kind: 'team'; workspaceId: string };

const collectionsPath = (scope: CollectionScope) =>
  scope.kind === 'personal' ? '/api/v1/me/collections' : `/api/v1/workspaces/${seg(scope.workspaceId)}/collections`;

export const data = {
  search: (query: SearchQuery) => call<SearchAnswer>('GET', searchPath(query)),
  skill: (slug: string) => call<{ skill: CatalogItem }>('GET', `/api/v1/skills/${seg(slug)}`),

  collections: (scope: CollectionScope, page = 1) =>
    call<{ collections: Collection[]; pagination: Pagination }>('GET', `${collectionsPath(scope)}?limit=50&page=${page}`),
  collection: (scope: CollectionScope, id: string) => call<{ collection: Collection }>('GET', `${collectionsPath(scope)}/${seg(id)}`),
  createCollection: (scope: CollectionScope, input: { name: string; description?: string }) =>
    call<{ collection: Collection }>('POST', collectionsPath(scope), input),
  updateCollection: (scope: CollectionScope, id: string, patch: CollectionPatch) =>
    call<{ collection: Collection }>('PATCH', `${collectionsPath(scope)}/${seg(id)}`, patch),
  deleteCollection: (scope: CollectionScope, id: string) => call<{ deleted: true }>('DELETE', `${collectionsPath(scope)}/${seg(id)}`),

  privateSkills: () => call<{ skills: PrivateSkill[]; pagination: Pagination }>('GET', '/api/v1/me/private-skills?limit=50'),
  createPrivateSkill: (input: { name: string; description: string }) => call<{ skill: PrivateSkill }>('POST', '/api/v1/me/private-skills', input),

  workspaces: () => call<{ workspaces: Workspace[]; pagination: Pagination }>('GET', '/api/v1/workspaces?limit=50'),
  workspace: (id: string) => call<{ workspace: Workspace }>('GET', `/api/v1/workspaces/${seg(id)}`),
  createWorkspace: (name: string) => call<{ workspace: Workspace }>('POST', '/api/v1/workspaces', { name }),
  members: (id: string, page = 1) => call<{ members: Member[]; pagination: Pagination }>('GET', `/api/v1/workspaces/${seg(id)}/members?limit=50&page=${page}`),
  setRole: (id: string, accountId: string, role: Role) =>
    call<{ member: { accountId: string; role: Role } }>('PUT', `/api/v1/workspaces/${seg(id)}/members/${seg(accountId)}`, { role }),
  removeMember: (id: string, accountId: string) => call<{ removed: true }>('DELETE', `/api/v1/workspaces/${seg(id)}/members/${seg(accountId)}`),
  invitations: (id: string) => call<{ invitations: Invitation[] }>('GET', `/api/v1/workspaces/${seg(id)}/invitations`),
  invite: (id: string, input: { role: InvitedRole; email: string | null; expiresInDays: number }) =>
    call<{ invitation: CreatedInvitation }>('POST', `/api/v1/workspaces/${seg(id)}/invitations`, input),
  revokeInvitation: (id: string, invitationId: string) => call<{ revoked: true }>('DELETE', `/api/v1/workspaces/${seg(id)}/invitations/${seg(invitationId)}`),
  previewInvitation: (token: string) =>
    call<{ invitation: { id: string; role: InvitedRole; expiresAt: string; workspace: { id: string; name: string } } }>('POST', '/api/v1/invitations/preview', { token }),
  acceptInvitation: (token: string) => call<{ workspace: Workspace }>('POST', '/api/v1/invitations/accept', { token }),
};
