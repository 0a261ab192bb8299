/** Team collections: `/api/v1/workspaces/{id}/collections`. */
import { PAGE_ERRORS, headerRef, parameterRef, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import { examplePublicEntry } from './paths-public';
import type { PathItem } from './openapi-types';

const NOW = '2026-11-21T09:30:00.000Z';
const exampleTeam = {
  id: '9a4e2b7c-1d3f-4a6e-8b5c-2e7d0f1a9c63',
  workspaceId: '5d2c8e1a-7b4f-4e9d-a3c6-1f0b9e8d7c24',
  name: 'Onboarding kit',
  description: 'Skills every newcomer installs',
  createdBy: '2e8f4a6c-9b1d-4f3e-a5c7-8d0b2f4e6a19',
  skillCount: 1,
  skills: [examplePublicEntry],
  createdAt: NOW,
  updatedAt: NOW,
};

const ROLES =
  'Read: any member. Create and update: owner, admin, member. Delete: owner, admin, or a member who created the collection ' +
  '(a viewer deletes nothing).';
const noAccess: Message[] = [['workspace.noAccess']];
const roleTooLow: Message[] = [['workspace.noAccess'], ['workspace.roleTooLow']];
const workspaceMissing: Message[] = [['workspace.notFound']];
const collectionMissing: Message[] = [['workspace.notFound'], ['collection.notFound']];
const ids = [parameterRef('WorkspaceId'), parameterRef('TeamCollectionId')];

const list = operation({
  operationId: 'listWorkspaceCollections',
  summary: 'List the shared collections of a workspace',
  description: ROLES,
  tag: 'Team collections',
  kind: 'public',
  conditional: true,
  parameters: [parameterRef('WorkspaceId'), parameterRef('Page'), parameterRef('Limit')],
  success: {
    status: '200',
    description:
      'One page of the collections of the workspace, oldest first, each with `skillCount` and its first 5 entries in `skills` ' +
      '(read the collection for all of them).',
    schema: schemaRef('TeamCollectionList'),
    example: {
      data: { collections: [exampleTeam], pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false } },
    },
  },
  errors: { '400': PAGE_ERRORS, '403': noAccess, '404': workspaceMissing },
});

const create = operation({
  operationId: 'createWorkspaceCollection',
  summary: 'Create a shared collection',
  description: ROLES,
  tag: 'Team collections',
  kind: 'public',
  idempotent: true,
  parameters: [parameterRef('WorkspaceId')],
  body: {
    schema: schemaRef('CreateCollection'),
    examples: {
      create: {
        summary: 'Name and description',
        value: { name: 'Onboarding kit', description: 'Skills every newcomer installs' },
      },
    },
  },
  success: {
    status: '201',
    description: 'Created.',
    schema: schemaRef('TeamCollectionResult'),
    example: { data: { collection: { ...exampleTeam, skillCount: 0, skills: [] } } },
  },
  errors: {
    '400': [
      ['validation.required', { field: 'name' }],
      ['validation.stringMax', { field: 'name', limit: 120 }],
      ['validation.bidiControl', { field: 'name' }],
      ['idempotency.invalidKey', { max: 255 }],
    ],
    '403': roleTooLow,
    '404': workspaceMissing,
    '409': [['quota.collectionsPerWorkspace', { limit: 500 }], ['idempotency.mismatch']],
  },
});

const get = operation({
  operationId: 'getWorkspaceCollection',
  summary: 'Read one shared collection',
  description: ROLES,
  tag: 'Team collections',
  kind: 'public',
  conditional: true,
  parameters: ids,
  success: {
    status: '200',
    description: 'The collection with its skills.',
    schema: schemaRef('TeamCollectionResult'),
    example: { data: { collection: exampleTeam } },
  },
  errors: { '403': noAccess, '404': collectionMissing },
});

const patch = operation({
  operationId: 'updateWorkspaceCollection',
  summary: 'Rename, change the description, add or remove public skills',
  description: ROLES,
  tag: 'Team collections',
  kind: 'public',
  ifMatch: true,
  parameters: ids,
  body: {
    schema: schemaRef('PatchTeamCollection'),
    examples: { add: { summary: 'Add a public skill', value: { skillSlug: 'git-commit-helper' } } },
  },
  success: {
    status: '200',
    description: 'The updated collection, with the ETag a later `If-Match` names it by.',
    schema: schemaRef('TeamCollectionResult'),
    headers: { ETag: headerRef('ETag') },
    example: { data: { collection: exampleTeam } },
  },
  errors: {
    '400': [
      ['body.empty'],
      ['validation.unknownField', { field: 'privateSkillId' }],
      ['validation.bidiControl', { field: 'name' }],
    ],
    '403': roleTooLow,
    '404': [
      ...collectionMissing,
      ['skill.notFound', { slug: 'no-such-skill' }],
      ['release.notFound', { slug: 'pdf-skill', version: '9.9.9' }],
    ],
    '409': [
      ['quota.entriesPerCollection', { limit: 1000 }],
      ['skill.blocked', { slug: 'credential-stealer', reason: 'Posts ~/.aws/credentials to a paste site.' }],
    ],
    // docs/governance.md "Pinned entries": an entry the policy refuses, or an item whose every release is yanked
    '422': [
      ['policy.allowedLicenses', { slug: 'pdf-tools', license: 'GPL-3.0' }],
      ['pin.allYanked', { slug: 'pdf-tools' }],
    ],
  },
});

const remove = operation({
  operationId: 'deleteWorkspaceCollection',
  summary: 'Delete a shared collection',
  description: ROLES,
  tag: 'Team collections',
  kind: 'public',
  ifMatch: true,
  parameters: ids,
  success: {
    status: '200',
    description: 'Deleted.',
    schema: schemaRef('Deleted'),
    example: { data: { deleted: true } },
  },
  errors: { '403': roleTooLow, '404': collectionMissing },
});

const removeMember = operation({
  operationId: 'removeWorkspaceMember',
  summary: 'Remove a member from a workspace, or leave it',
  description:
    'Owners remove anyone; admins remove admins, members and viewers; anyone may remove themself (`me` stands for the caller). ' +
    "The last owner cannot leave or be removed (409): make another member owner first. The member's collections stay in the workspace. " +
    'Scope: `workspaces:manage`.',
  tag: 'Workspaces',
  kind: 'public',
  parameters: [
    parameterRef('WorkspaceId'),
    {
      name: 'accountId',
      in: 'path',
      required: true,
      description: 'Account id of the member, or `me` for the caller.',
      schema: { type: 'string' },
      example: 'me',
    },
  ],
  success: {
    status: '200',
    description: 'Removed.',
    schema: schemaRef('Removed'),
    example: { data: { removed: true } },
  },
  errors: {
    '403': roleTooLow,
    '404': [['workspace.notFound'], ['workspace.memberNotFound']],
    '409': [['workspace.lastOwner']],
  },
});

export const workspacePaths: Record<string, PathItem> = {
  '/api/v1/workspaces/{id}/collections': { get: list, post: create },
  '/api/v1/workspaces/{id}/collections/{collectionId}': { get, patch, delete: remove },
  '/api/v1/workspaces/{id}/members/{accountId}': { delete: removeMember },
};
