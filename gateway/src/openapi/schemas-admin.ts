/**
 * Schemas of the admin surface (docs/api.md) and the operational endpoints.
 * docs/api.md fixes the request bodies and the documented response fields;
 * the admin responses stay open to extra fields because only operators and
 * the admin CLI read them.
 */
import { AUDIT_ACTIONS } from '../domain/audit/audit';
import { WORKSPACE_ROLES } from '@skills/common/workspace-roles';
import { DESCRIPTION_MAX, NAME_MAX, envelope } from './schemas-public';
import type { JsonSchema } from './openapi-types';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const plan: JsonSchema = { type: 'string', enum: ['free', 'pro', 'team'], description: '`free` has no API access' };
const role: JsonSchema = { type: 'string', enum: [...WORKSPACE_ROLES] };

function closedBody(required: string[], properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required, additionalProperties: false, properties };
}

function openObject(required: string[], properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required, properties };
}

const skillFields: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: 'string', maxLength: 5000, default: '' },
  type: { type: 'string', enum: ['skill', 'plugin'], default: 'skill' },
  category: { type: 'string', minLength: 1, maxLength: 100 },
  status: { type: 'string', enum: ['active', 'draft', 'archived'], default: 'active' },
  tags: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 50 }, default: [] },
  publisher: { type: ['string', 'null'], minLength: 1, maxLength: 200, description: 'Absent or null: none' },
  version: {
    type: ['string', 'null'],
    maxLength: 64,
    pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]*$',
    description: 'Release, e.g. `1.4.0`',
  },
  license: {
    type: ['string', 'null'],
    maxLength: 200,
    description: 'SPDX id (`MIT`, `Apache-2.0`) or expression (`MIT OR Apache-2.0`)',
  },
  repositoryUrl: { type: ['string', 'null'], format: 'uri', maxLength: 2000, description: 'http or https' },
  homepageUrl: { type: ['string', 'null'], format: 'uri', maxLength: 2000, description: 'http or https' },
  downloads: {
    type: 'integer',
    minimum: 0,
    description: 'Use count; absent keeps the stored count (an edit does not reset it)',
  },
};

const auditEvent = openObject(
  ['id', 'at', 'action', 'actor', 'targetAccountId', 'target', 'requestId', 'clientAddress', 'details'],
  {
    id: {
      type: 'string',
      pattern: '^[1-9][0-9]*$',
      description: 'Increasing; pass the last one of a page as `before` for the next',
    },
    at: { type: 'string', format: 'date-time' },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    actor: openObject(['kind'], {
      kind: {
        type: 'string',
        enum: ['admin', 'account', 'scanner', 'anonymous'],
        description:
          '`scanner`: a scanner credential recording a verdict; `anonymous`: a failed authentication, a password reset request',
      },
      accountId: uuid,
      scannerId: uuid,
    }),
    targetAccountId: { type: ['string', 'null'], format: 'uuid', description: 'The account the action concerns' },
    target: { type: ['string', 'null'], description: 'What was acted on: a key id, a slug, a workspace id' },
    requestId: {
      type: 'string',
      description: 'The X-Request-Id of the request (of the first one, for counted failures)',
    },
    clientAddress: { type: 'string', description: 'As TRUST_PROXY decides it; `*` for failures counted together' },
    details: {
      type: 'object',
      description:
        "Per action, never a secret: `plan`; `from`/`to`; the key `prefix` and `name`; `role`; `status`; for releases and verdicts the `version`, `verdict`, `note`, `reason`; for `auth.failure` `reason` (`api_key`, `admin_token`, `scanner_token`, `password`), `count`, `firstAt`, `lastAt` (and `userAgent` for `password`); for `auth.*` the `method`, `scope`, `purpose`, `issuer` and the client's `userAgent`",
    },
  },
);

export const adminSchemas: Record<string, JsonSchema> = {
  AuditEventPage: envelope({
    events: { type: 'array', items: auditEvent },
    nextBefore: {
      type: ['string', 'null'],
      description: 'Pass as `before` for the next (older) page; null on the last page',
    },
  }),
  CreateAccount: closedBody(['email', 'plan'], {
    email: { type: 'string', format: 'email', maxLength: 254 },
    name: { type: ['string', 'null'], minLength: 1, maxLength: NAME_MAX },
    plan,
  }),
  UpdateAccount: closedBody(['plan'], { plan }),
  Account: openObject(['id', 'email', 'plan'], {
    id: uuid,
    email: { type: 'string' },
    name: { type: ['string', 'null'] },
    plan,
  }),
  AccountResult: {
    type: 'object',
    required: ['data'],
    properties: { data: openObject(['account'], { account: ref('Account') }) },
  },
  ApiKeySummary: ref('OwnApiKey'),
  AccountDetail: {
    type: 'object',
    required: ['data'],
    properties: {
      data: openObject(['account'], {
        account: ref('Account'),
        apiKeys: { type: 'array', items: ref('ApiKeySummary') },
      }),
    },
  },
  CreateApiKey: {
    ...closedBody([], {
      name: { type: ['string', 'null'], minLength: 1, maxLength: NAME_MAX },
      scopes: {
        type: 'array',
        items: ref('Scope'),
        minItems: 1,
        uniqueItems: true,
        description: 'Absent: every scope',
      },
      expiresInDays: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 3650,
        description: 'null: never; absent (and no `expiresAt`): the maximum lifetime, or never',
      },
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description:
          'The exact end instead of a number of days: at least 1 day and at most the maximum lifetime (`API_KEYS_MAX_LIFETIME_DAYS`, else 3650 days) from now',
      },
    }),
    description: 'At most one of `expiresInDays` and `expiresAt` (both: 400).',
  },
  IssuedApiKey: envelope({ apiKey: ref('NewApiKey') }),
  Revoked: envelope({ revoked: { const: true } }),
  SkillInput: closedBody(['name', 'category'], skillFields),
  AdminSkill: openObject(['slug', 'name', 'type', 'status'], {
    id: uuid,
    slug: { type: 'string' },
    ...skillFields,
    status: { type: 'string', enum: ['active', 'draft', 'archived', 'deleted'] },
    updatedAt: { type: 'string', format: 'date-time' },
  }),
  AdminSkillResult: {
    type: 'object',
    required: ['data'],
    properties: { data: openObject(['skill'], { skill: ref('AdminSkill') }) },
  },
  Imported: envelope({ imported: { type: 'integer', minimum: 0 } }),
  ItemPage: {
    type: 'object',
    required: ['data'],
    properties: {
      data: openObject(['items'], {
        items: {
          type: 'array',
          items: openObject(['id', 'name', 'status'], {
            id: uuid,
            name: { type: 'string' },
            status: { type: 'string', enum: ['active', 'draft', 'archived', 'deleted'] },
          }),
        },
        next: { type: ['string', 'null'], description: 'Cursor for `after`; null on the last page' },
      }),
    },
  },
  CreatePrivateSkill: closedBody(['name'], {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    description: { type: 'string', maxLength: DESCRIPTION_MAX },
  }),
  PrivateSkillCreated: {
    type: 'object',
    required: ['data'],
    properties: { data: openObject(['skill'], { skill: openObject(['id'], { id: uuid }) }) },
  },
  CreateWorkspace: closedBody(['name', 'ownerAccountId'], {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    ownerAccountId: uuid,
  }),
  WorkspaceResult: {
    type: 'object',
    required: ['data'],
    properties: {
      data: openObject(['workspace'], {
        workspace: openObject(['id', 'name'], { id: uuid, name: { type: 'string' } }),
      }),
    },
  },
  SetMemberRole: closedBody(['role'], { role }),
  MemberResult: {
    type: 'object',
    required: ['data'],
    properties: {
      data: openObject(['member'], {
        member: openObject(['workspaceId', 'accountId', 'role'], {
          workspaceId: uuid,
          accountId: uuid,
          role,
        }),
      }),
    },
  },
  ReindexJob: {
    type: 'object',
    required: ['data'],
    properties: {
      data: openObject(['job'], {
        job: openObject(['id', 'status', 'indexed', 'startedAt'], {
          id: uuid,
          status: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
          indexed: { type: 'integer', minimum: 0, description: 'Items written to the new read model so far' },
          total: { type: 'integer', minimum: 0, description: 'Items to write, when known' },
          startedAt: { type: 'string', format: 'date-time' },
          finishedAt: { type: 'string', format: 'date-time' },
          error: { type: 'string', description: 'Why it failed (English, for operators)' },
        }),
      }),
    },
  },
  Health: envelope({ status: { type: 'string', enum: ['ok', 'ready'] } }),
};
