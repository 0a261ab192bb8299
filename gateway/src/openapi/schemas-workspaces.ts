/**
 * Schemas of the self-service surface (docs/collections.md): workspaces with the
 * caller's role, members, invitations, the caller's private skills and one
 * catalog item. Response objects are closed, like the rest of the public API.
 */
import { INVITABLE_ROLES, WORKSPACE_ROLES } from '@skills/common/workspace-roles';
import { DESCRIPTION_MAX, NAME_MAX, envelope } from './schemas-public';
import type { JsonSchema } from './openapi-types';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const role: JsonSchema = { type: 'string', enum: [...WORKSPACE_ROLES] };
const invitedRole: JsonSchema = {
  type: 'string',
  enum: [...INVITABLE_ROLES],
  description: 'What the invitation grants; ownership is given by an owner to a member, never by a link',
};
const token: JsonSchema = {
  type: 'string',
  maxLength: 100,
  description: 'The secret of the invitation link, from its `#token=` fragment',
};

function closed(required: string[], properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required, additionalProperties: false, properties };
}

const invitationFields: Record<string, JsonSchema> = {
  id: uuid,
  workspaceId: uuid,
  role: invitedRole,
  email: {
    type: ['string', 'null'],
    description: 'Where the link was mailed, if an address was given; any account holding the link may accept',
  },
  createdBy: { ...uuid, description: 'Account that invited' },
  createdAt: timestamp,
  expiresAt: timestamp,
};
const invitationNames = Object.keys(invitationFields);

export const workspaceSchemas: Record<string, JsonSchema> = {
  MyWorkspace: closed(['id', 'name', 'role', 'memberCount', 'createdAt'], {
    id: uuid,
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    role: { ...role, description: "The caller's role in the workspace" },
    memberCount: { type: 'integer', minimum: 1 },
    createdAt: timestamp,
  }),
  MyWorkspaceResult: envelope({ workspace: ref('MyWorkspace') }),
  MyWorkspaceList: envelope({
    workspaces: { type: 'array', items: ref('MyWorkspace') },
    pagination: ref('Pagination'),
  }),
  NewWorkspace: closed(['name'], {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX, description: 'Trimmed before it is stored' },
  }),
  WorkspaceMember: closed(['accountId', 'email', 'name', 'role', 'joinedAt'], {
    accountId: uuid,
    email: { type: ['string', 'null'], description: "The account's email (null once the account is gone)" },
    name: { type: ['string', 'null'] },
    role,
    joinedAt: timestamp,
  }),
  WorkspaceMemberList: envelope({
    members: { type: 'array', items: ref('WorkspaceMember') },
    pagination: ref('Pagination'),
  }),
  WorkspaceMemberRole: closed(['accountId', 'role', 'joinedAt'], { accountId: uuid, role, joinedAt: timestamp }),
  WorkspaceMemberResult: envelope({ member: ref('WorkspaceMemberRole') }),
  NewMemberRole: closed(['role'], { role }),
  WorkspaceInvitation: closed(invitationNames, invitationFields),
  WorkspaceInvitationList: envelope({
    invitations: {
      type: 'array',
      items: ref('WorkspaceInvitation'),
      maxItems: 100,
      description: 'Pending ones, newest first',
    },
  }),
  NewWorkspaceInvitation: closed(['role'], {
    role: invitedRole,
    email: {
      type: ['string', 'null'],
      format: 'email',
      maxLength: 254,
      description: 'Mail the link there (when the server has SMTP); the link is in the answer either way',
    },
    expiresInDays: { type: 'integer', minimum: 1, maximum: 30, default: 7 },
  }),
  CreatedWorkspaceInvitation: envelope({
    invitation: closed([...invitationNames, 'url', 'mailed'], {
      ...invitationFields,
      url: {
        type: 'string',
        description:
          'The link to hand over: shown this once, only its SHA-256 is kept. It works once, until `expiresAt`',
      },
      mailed: { type: 'boolean', description: 'The mail server accepted the mail to `email`' },
    }),
  }),
  InvitationToken: closed(['token'], { token }),
  InvitationPreview: envelope({
    invitation: closed(['id', 'role', 'expiresAt', 'workspace'], {
      id: uuid,
      role: invitedRole,
      expiresAt: timestamp,
      workspace: closed(['id', 'name'], { id: uuid, name: { type: 'string' } }),
    }),
  }),
  PrivateSkill: closed(['id', 'name', 'description'], {
    id: uuid,
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    description: { type: 'string', maxLength: DESCRIPTION_MAX },
  }),
  PrivateSkillResult: envelope({ skill: ref('PrivateSkill') }),
  PrivateSkillList: envelope({ skills: { type: 'array', items: ref('PrivateSkill') }, pagination: ref('Pagination') }),
  NewPrivateSkill: closed(['name'], {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX, description: 'Trimmed before it is stored' },
    description: { type: 'string', maxLength: DESCRIPTION_MAX, default: '' },
  }),
  CatalogItemResult: envelope({ skill: ref('CatalogItem') }),
};
