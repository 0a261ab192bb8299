/** The admin surface `/admin/v1` (docs/api.md), behind the admin token. */
import { AUDIT_ACTIONS } from '../domain/audit/audit';
import { pathParam, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { Parameter, PathItem } from './openapi-types';

const accountId = pathParam('id', 'Account id.');
const slugParam: Parameter = {
  ...pathParam('slug', 'Public identifier of the item.'),
  schema: { type: 'string', pattern: '^[a-z0-9-]{1,100}$' },
};
const accountMissing: Message[] = [['account.notFound']];
const TAG = 'Admin';

const createAccount = operation({
  operationId: 'adminCreateAccount',
  summary: 'Create an account',
  tag: TAG,
  kind: 'admin',
  body: {
    schema: schemaRef('CreateAccount'),
    examples: { pro: { summary: 'A pro account', value: { email: 'ada@example.com', plan: 'pro' } } },
  },
  success: { status: '201', description: 'Created.', schema: schemaRef('AccountResult') },
  errors: { '400': [['validation.email', { field: 'email' }]], '409': [['account.emailTaken']] },
});

const getAccount = operation({
  operationId: 'adminGetAccount',
  summary: 'Read an account and its API keys',
  tag: TAG,
  kind: 'admin',
  parameters: [accountId],
  success: { status: '200', description: 'The account.', schema: schemaRef('AccountDetail') },
  errors: { '404': accountMissing },
});

const updateAccount = operation({
  operationId: 'adminUpdateAccount',
  summary: 'Change the plan of an account',
  description: 'Takes effect on the next request of any of its keys.',
  tag: TAG,
  kind: 'admin',
  parameters: [accountId],
  body: { schema: schemaRef('UpdateAccount') },
  success: { status: '200', description: 'The updated account.', schema: schemaRef('AccountResult') },
  errors: { '400': [['validation.oneOf', { field: 'plan', values: 'free, pro, team' }]], '404': accountMissing },
});

const issueKey = operation({
  operationId: 'adminCreateApiKey',
  summary: 'Issue an API key',
  description:
    "The key is in the response once; only its SHA-256 is stored. Without `scopes`, every scope. Its end is `expiresInDays` from now or the instant `expiresAt` (one or the other, the same bounds as the console's keys); with neither, the longest lifetime allowed (never, unless the operator set a maximum).",
  tag: TAG,
  kind: 'admin',
  parameters: [accountId],
  body: { schema: schemaRef('CreateApiKey') },
  success: { status: '201', description: 'Issued.', schema: schemaRef('IssuedApiKey') },
  errors: {
    '400': [
      ['apiKey.noExpiryRefused', { limit: 90 }],
      ['apiKey.expiresAtRange', { limit: 90 }],
      ['validation.exclusive', { values: 'expiresInDays, expiresAt' }],
    ],
    '404': accountMissing,
    '409': [['apiKey.tooMany', { limit: 20 }]],
  },
});

const listKeys = operation({
  operationId: 'adminListApiKeys',
  summary: 'List the API keys of an account',
  tag: TAG,
  kind: 'admin',
  parameters: [accountId],
  success: {
    status: '200',
    description: 'Oldest first, revoked and expired ones included.',
    schema: schemaRef('OwnApiKeys'),
  },
  errors: { '404': accountMissing },
});

const revokeKey = operation({
  operationId: 'adminRevokeApiKey',
  summary: 'Revoke an API key',
  description: 'Refused by every gateway replica within 1 s. Revoking a revoked key answers the same.',
  tag: TAG,
  kind: 'admin',
  parameters: [pathParam('keyId', 'API key id.')],
  success: {
    status: '200',
    description: 'Revoked.',
    schema: schemaRef('Revoked'),
    example: { data: { revoked: true } },
  },
  errors: { '404': [['apiKey.notFound']] },
});

const putSkill = operation({
  operationId: 'adminPutSkill',
  summary: 'Create or replace a public catalog item',
  description: '200 when it existed, 201 when created. Emits a skill-change event; search shows it shortly after.',
  tag: TAG,
  kind: 'admin',
  parameters: [slugParam],
  body: { schema: schemaRef('SkillInput') },
  success: { status: '200', description: 'Replaced.', schema: schemaRef('AdminSkillResult') },
  errors: {
    '400': [
      ['validation.required', { field: 'category' }],
      ['validation.pattern', { field: 'slug' }],
    ],
  },
});
putSkill.responses['201'] = {
  description: 'Created.',
  content: { 'application/json': { schema: schemaRef('AdminSkillResult') } },
};

const deleteSkill = operation({
  operationId: 'adminDeleteSkill',
  summary: 'Delete a public catalog item',
  description: 'Collections keep the reference and show it with `status: "deleted"`.',
  tag: TAG,
  kind: 'admin',
  parameters: [slugParam],
  success: { status: '200', description: 'Deleted.', schema: schemaRef('Deleted') },
  errors: { '404': [['skill.notFound', { slug: 'no-such-skill' }]] },
});

const importSkills = operation({
  operationId: 'adminImportSkills',
  summary: 'Import public items from NDJSON',
  description:
    'One JSON object per line: `slug` plus the fields of PUT /admin/v1/skills/{slug} (SkillInput). Up to 50 MB, streamed. ' +
    'A bad line → 400 naming it; nothing is imported then.',
  tag: TAG,
  kind: 'admin',
  body: {
    schema: { type: 'string' },
    contentType: 'application/x-ndjson',
    examples: {
      twoLines: {
        summary: 'Two items',
        value:
          '{"slug":"git-commit-helper","name":"Git commit helper","description":"Conventional commits","type":"skill","category":"developer-tools"}\n' +
          '{"slug":"pdf-export","name":"PDF export","description":"Exports notes as PDF","type":"plugin","category":"documents","tags":["pdf"]}\n',
      },
    },
  },
  success: {
    status: '200',
    description: 'Imported.',
    schema: schemaRef('Imported'),
    example: { data: { imported: 1200 } },
  },
  errors: {
    '400': [['import.badLine', { line: 7, detail: '"type" must be one of: skill, plugin' }]],
    '413': [['body.tooLarge', { limit: '51200kb' }]],
  },
});

const listItems = operation({
  operationId: 'adminListItems',
  summary: 'Page through every catalog item',
  tag: TAG,
  kind: 'admin',
  parameters: [
    {
      name: 'after',
      in: 'query',
      description: 'Cursor returned as `next` by the previous page.',
      schema: { type: 'string', format: 'uuid' },
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Items per page.',
      schema: { type: 'integer', minimum: 1, maximum: 5000, default: 1000 },
    },
  ],
  success: { status: '200', description: 'One page.', schema: schemaRef('ItemPage') },
  errors: { '400': [['validation.numberMax', { field: 'limit', limit: 5000 }]] },
});

const listAuditEvents = operation({
  operationId: 'adminListAuditEvents',
  summary: 'Read the audit trail, newest first',
  description:
    'Admin actions, key issuance and revocation, plan and role changes, and failed authentications (one record per address, ' +
    'reason and flush interval, with a count). Kept AUDIT_RETENTION_DAYS days. Never holds a secret.',
  tag: TAG,
  kind: 'admin',
  parameters: [
    {
      name: 'action',
      in: 'query',
      description: 'Only this action.',
      schema: { type: 'string', enum: [...AUDIT_ACTIONS] },
    },
    {
      name: 'accountId',
      in: 'query',
      description: 'Only records whose actor or target is this account.',
      schema: { type: 'string', format: 'uuid' },
    },
    {
      name: 'before',
      in: 'query',
      description: 'Only records older than this id: the `nextBefore` of the previous page.',
      schema: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' },
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Records per page.',
      schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    },
  ],
  success: { status: '200', description: 'One page.', schema: schemaRef('AuditEventPage') },
  errors: {
    '400': [
      ['validation.oneOf', { field: 'action', values: 'account.create, …' }],
      ['validation.numberMax', { field: 'limit', limit: 500 }],
    ],
  },
});

const createPrivateSkill = operation({
  operationId: 'adminCreatePrivateSkill',
  summary: 'Create a private skill of an account',
  tag: TAG,
  kind: 'admin',
  parameters: [accountId],
  body: { schema: schemaRef('CreatePrivateSkill') },
  success: { status: '201', description: 'Created.', schema: schemaRef('PrivateSkillCreated') },
  errors: { '404': accountMissing },
});

const createWorkspace = operation({
  operationId: 'adminCreateWorkspace',
  summary: 'Create a team workspace',
  description: 'The owner account becomes its `owner` member.',
  tag: TAG,
  kind: 'admin',
  body: { schema: schemaRef('CreateWorkspace') },
  success: { status: '201', description: 'Created.', schema: schemaRef('WorkspaceResult') },
  errors: { '404': accountMissing },
});

const setMember = operation({
  operationId: 'adminSetWorkspaceMember',
  summary: 'Add a member or change their role',
  tag: TAG,
  kind: 'admin',
  parameters: [pathParam('id', 'Workspace id.'), pathParam('accountId', 'Account id.')],
  body: { schema: schemaRef('SetMemberRole') },
  success: { status: '200', description: 'The membership.', schema: schemaRef('MemberResult') },
  errors: { '404': [['workspace.notFound'], ['account.notFound']], '409': [['workspace.lastOwner']] },
});

const removeMember = operation({
  operationId: 'adminRemoveWorkspaceMember',
  summary: 'Remove a member from a workspace',
  description: "The last owner cannot be removed (409). The member's collections stay in the workspace.",
  tag: TAG,
  kind: 'admin',
  parameters: [pathParam('id', 'Workspace id.'), pathParam('accountId', 'Account id.')],
  success: { status: '200', description: 'Removed.', schema: schemaRef('Removed') },
  errors: { '404': [['workspace.notFound'], ['workspace.memberNotFound']], '409': [['workspace.lastOwner']] },
});

const reindex = operation({
  operationId: 'adminStartReindex',
  summary: 'Rebuild the search index from the system of record',
  description:
    'Runs in the background; follow it with GET /admin/v1/reindex/{jobId} on any replica. One job runs at a time in the whole deployment.',
  tag: TAG,
  kind: 'admin',
  success: {
    status: '202',
    description: 'Started; `Location` names the job to poll.',
    schema: schemaRef('ReindexJob'),
    headers: { Location: { description: 'Path of the job.', required: true, schema: { type: 'string' } } },
  },
  errors: { '409': [['reindex.alreadyRunning']] },
});

const reindexStatus = operation({
  operationId: 'adminGetReindex',
  summary: 'Progress of a reindex job',
  description:
    'Jobs are stored in Postgres: any replica answers. A running job whose replica stopped reads as failed after 60 s.',
  tag: TAG,
  kind: 'admin',
  parameters: [pathParam('jobId', 'Job id returned by POST /admin/v1/reindex.')],
  success: { status: '200', description: 'The job.', schema: schemaRef('ReindexJob') },
  errors: { '404': [['reindex.jobNotFound']] },
});

export const adminPaths: Record<string, PathItem> = {
  '/admin/v1/accounts': { post: createAccount },
  '/admin/v1/accounts/{id}': { get: getAccount, patch: updateAccount },
  '/admin/v1/accounts/{id}/api-keys': { get: listKeys, post: issueKey },
  '/admin/v1/api-keys/{keyId}': { delete: revokeKey },
  '/admin/v1/skills/{slug}': { put: putSkill, delete: deleteSkill },
  '/admin/v1/skills:import': { post: importSkills },
  '/admin/v1/items': { get: listItems },
  '/admin/v1/audit-events': { get: listAuditEvents },
  '/admin/v1/accounts/{id}/private-skills': { post: createPrivateSkill },
  '/admin/v1/workspaces': { post: createWorkspace },
  '/admin/v1/workspaces/{id}/members/{accountId}': { put: setMember, delete: removeMember },
  '/admin/v1/reindex': { post: reindex },
  '/admin/v1/reindex/{jobId}': { get: reindexStatus },
};
