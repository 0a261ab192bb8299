/**
 * Self-service workspaces (docs/collections.md): `/api/v1/workspaces`, their
 * members and roles, invitations by link, and accepting one. Each
 * description names the scope a key needs; the 403 examples show the
 * missing-scope message with one scope, as everywhere in the document.
 */
import { INVITABLE_ROLES, WORKSPACE_ROLES } from '@skills/common/workspace-roles';
import { PAGE_ERRORS, parameterRef, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { Parameter, PathItem } from './openapi-types';

const TAG = 'Workspaces';
const NOW = '2026-11-21T09:30:00.000Z';
const LATER = '2026-11-28T09:30:00.000Z';
const WS = '5d2c8e1a-7b4f-4e9d-a3c6-1f0b9e8d7c24';
const ACCOUNT = '2e8f4a6c-9b1d-4f3e-a5c7-8d0b2f4e6a19';
const INVITATION = '8c1e5a2b-6d4f-4a3e-9b7c-0d2f4e6a8b13';
const pagination = { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false };
const exampleWorkspace = { id: WS, name: 'Platform', role: 'owner', memberCount: 3, createdAt: NOW };
const exampleInvitation = {
  id: INVITATION,
  workspaceId: WS,
  role: 'member',
  email: 'bo@example.com',
  createdBy: ACCOUNT,
  createdAt: NOW,
  expiresAt: LATER,
};

const noAccess: Message[] = [['workspace.noAccess']];
const roleTooLow: Message[] = [['workspace.noAccess'], ['workspace.roleTooLow']];
const workspaceMissing: Message[] = [['workspace.notFound']];
const invitationInvalid: Message[] = [
  ['invitation.invalid'],
  ['invitation.inviterGone'],
  ['validation.required', { field: 'token' }],
];
const nameErrors: Message[] = [
  ['validation.required', { field: 'name' }],
  ['validation.stringMax', { field: 'name', limit: 120 }],
  ['validation.bidiControl', { field: 'name' }],
];
const accountParam: Parameter = {
  name: 'accountId',
  in: 'path',
  required: true,
  description: 'Account id of the member, or `me` for the caller.',
  schema: { type: 'string' },
  example: ACCOUNT,
};
const invitationParam: Parameter = {
  name: 'invitationId',
  in: 'path',
  required: true,
  description: 'Invitation id.',
  schema: { type: 'string' },
  example: INVITATION,
};

const workspaces: PathItem = {
  get: operation({
    operationId: 'listWorkspaces',
    summary: 'The workspaces the caller belongs to, with its role in each',
    description: 'Oldest first. Scope: `collections:read`.',
    tag: TAG,
    kind: 'public',
    conditional: true,
    parameters: [parameterRef('Page'), parameterRef('Limit')],
    success: {
      status: '200',
      description: 'One page of them.',
      schema: schemaRef('MyWorkspaceList'),
      example: { data: { workspaces: [exampleWorkspace], pagination } },
    },
    errors: { '400': PAGE_ERRORS },
  }),
  post: operation({
    operationId: 'createWorkspace',
    summary: 'Create a team workspace: the caller is its owner',
    description: 'An account owns at most 20 workspaces it created (409). Scope: `workspaces:manage`.',
    tag: TAG,
    kind: 'public',
    body: {
      schema: schemaRef('NewWorkspace'),
      examples: { create: { summary: 'A name', value: { name: 'Platform' } } },
    },
    success: {
      status: '201',
      description: 'Created, with the caller as owner.',
      schema: schemaRef('MyWorkspaceResult'),
      example: { data: { workspace: { ...exampleWorkspace, memberCount: 1 } } },
    },
    errors: { '400': nameErrors, '409': [['quota.workspacesPerAccount', { limit: 20 }]] },
  }),
};

const workspace: PathItem = {
  get: operation({
    operationId: 'getWorkspace',
    summary: "A workspace, with the caller's role",
    description: 'Any member. Scope: `collections:read`.',
    tag: TAG,
    kind: 'public',
    conditional: true,
    parameters: [parameterRef('WorkspaceId')],
    success: {
      status: '200',
      description: 'The workspace.',
      schema: schemaRef('MyWorkspaceResult'),
      example: { data: { workspace: exampleWorkspace } },
    },
    errors: { '403': noAccess, '404': workspaceMissing },
  }),
};

const members: PathItem = {
  get: operation({
    operationId: 'listWorkspaceMembers',
    summary: 'The members of a workspace, with their roles',
    description:
      "Any member, viewers included, sees every member's email and name. Owners first, then admins, members and viewers, each by join date. " +
      'Scope: `collections:read`.',
    tag: TAG,
    kind: 'public',
    conditional: true,
    parameters: [parameterRef('WorkspaceId'), parameterRef('Page'), parameterRef('Limit')],
    success: {
      status: '200',
      description: 'One page of members.',
      schema: schemaRef('WorkspaceMemberList'),
      example: {
        data: {
          members: [{ accountId: ACCOUNT, email: 'ana@example.com', name: 'Ana', role: 'owner', joinedAt: NOW }],
          pagination,
        },
      },
    },
    errors: { '400': PAGE_ERRORS, '403': noAccess, '404': workspaceMissing },
  }),
};

const member: PathItem = {
  put: operation({
    operationId: 'setWorkspaceMemberRole',
    summary: "Change a member's role",
    description:
      'Owners set any role; admins move admins, members and viewers among those three (never to or from owner); members and viewers change none. ' +
      'The last owner cannot be demoted, by themself either (409): make another member owner first. People join by invitation: this changes ' +
      'the role of a member, it adds no one. Scope: `workspaces:manage`.',
    tag: TAG,
    kind: 'public',
    parameters: [parameterRef('WorkspaceId'), accountParam],
    body: {
      schema: schemaRef('NewMemberRole'),
      examples: { viewer: { summary: 'Read-only access', value: { role: 'viewer' } } },
    },
    success: {
      status: '200',
      description: 'The member with the new role.',
      schema: schemaRef('WorkspaceMemberResult'),
      example: { data: { member: { accountId: ACCOUNT, role: 'viewer', joinedAt: NOW } } },
    },
    errors: {
      '400': [['validation.oneOf', { field: 'role', values: WORKSPACE_ROLES.join(', ') }]],
      '403': roleTooLow,
      '404': [['workspace.notFound'], ['workspace.memberNotFound']],
      '409': [['workspace.lastOwner']],
    },
  }),
};

const invitations: PathItem = {
  get: operation({
    operationId: 'listWorkspaceInvitations',
    summary: 'The pending invitations of a workspace',
    description:
      'Owners and admins. Neither revoked, accepted nor expired; newest first; at most 100. Scope: `collections:read`.',
    tag: TAG,
    kind: 'public',
    conditional: true,
    parameters: [parameterRef('WorkspaceId')],
    success: {
      status: '200',
      description: 'The pending invitations.',
      schema: schemaRef('WorkspaceInvitationList'),
      example: { data: { invitations: [exampleInvitation] } },
    },
    errors: { '403': [['workspace.noAccess'], ['workspace.roleTooLow']], '404': workspaceMissing },
  }),
  post: operation({
    operationId: 'createWorkspaceInvitation',
    summary: 'Invite someone by a link',
    description:
      'Owners and admins. The answer holds the link (`url`), shown this once; it works once, until it expires (1–30 days, 7 by default), ' +
      'for a signed-in account or to sign up (also where sign-up needs an invitation). With `email`, the link is also mailed when the server ' +
      'has SMTP. At most 100 pending invitations per workspace. Scope: `workspaces:manage`.',
    tag: TAG,
    kind: 'public',
    parameters: [parameterRef('WorkspaceId')],
    body: {
      schema: schemaRef('NewWorkspaceInvitation'),
      examples: {
        member: { summary: 'A member, mailed, for a week', value: { role: 'member', email: 'bo@example.com' } },
      },
    },
    success: {
      status: '201',
      description: 'Invited. `Cache-Control: no-store`: the answer holds the link.',
      schema: schemaRef('CreatedWorkspaceInvitation'),
      example: {
        data: {
          invitation: {
            ...exampleInvitation,
            url: 'https://skills.example.com/console/invitations#token=Xq3…',
            mailed: true,
          },
        },
      },
    },
    errors: {
      '400': [
        ['validation.oneOf', { field: 'role', values: INVITABLE_ROLES.join(', ') }],
        ['validation.numberMax', { field: 'expiresInDays', limit: 30 }],
        ['validation.email', { field: 'email' }],
      ],
      '403': roleTooLow,
      '404': workspaceMissing,
      '409': [['quota.pendingInvitations', { limit: 100 }]],
    },
  }),
};

const invitation: PathItem = {
  delete: operation({
    operationId: 'revokeWorkspaceInvitation',
    summary: 'Revoke a pending invitation',
    description:
      'Owners and admins. The link stops working at once, for joining and for signing up. Scope: `workspaces:manage`.',
    tag: TAG,
    kind: 'public',
    parameters: [parameterRef('WorkspaceId'), invitationParam],
    success: {
      status: '200',
      description: 'Revoked.',
      schema: schemaRef('Revoked'),
      example: { data: { revoked: true } },
    },
    errors: { '403': roleTooLow, '404': [['workspace.notFound'], ['invitation.notFound']] },
  }),
};

const preview: PathItem = {
  post: operation({
    operationId: 'previewInvitation',
    summary: 'What an invitation link offers',
    description:
      'The workspace, the role and the expiry, before accepting. A console session only: the link is for a person.',
    tag: TAG,
    kind: 'session',
    body: { schema: schemaRef('InvitationToken') },
    success: {
      status: '200',
      description: 'The invitation.',
      schema: schemaRef('InvitationPreview'),
      example: {
        data: {
          invitation: { id: INVITATION, role: 'member', expiresAt: LATER, workspace: { id: WS, name: 'Platform' } },
        },
      },
    },
    errors: { '400': invitationInvalid },
  }),
};

const accept: PathItem = {
  post: operation({
    operationId: 'acceptInvitation',
    summary: 'Join a workspace with an invitation link',
    description:
      'The signed-in account becomes a member with the invited role; the link is used up. A console session only: a person accepts, ' +
      "after signing in or signing up (with the same link as the invitation where sign-up needs one). The account's email address must be verified. " +
      'A link holds only while its creator may still invite with its role: removing them or demoting them below admin revokes it.',
    tag: TAG,
    kind: 'session',
    body: { schema: schemaRef('InvitationToken') },
    success: {
      status: '200',
      description: 'Joined.',
      schema: schemaRef('MyWorkspaceResult'),
      example: { data: { workspace: { ...exampleWorkspace, role: 'member' } } },
    },
    errors: { '400': invitationInvalid, '403': [['email.notVerified']], '409': [['invitation.alreadyMember']] },
  }),
};

export const selfServicePaths: Record<string, PathItem> = {
  '/api/v1/workspaces': workspaces,
  '/api/v1/workspaces/{id}': workspace,
  '/api/v1/workspaces/{id}/members': members,
  '/api/v1/workspaces/{id}/members/{accountId}': member,
  '/api/v1/workspaces/{id}/invitations': invitations,
  '/api/v1/workspaces/{id}/invitations/{invitationId}': invitation,
  '/api/v1/invitations/preview': preview,
  '/api/v1/invitations/accept': accept,
};
