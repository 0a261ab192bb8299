/**
 * Schemas of governed team collections (docs/governance.md): pins,
 * compliance and drift on entries, the workspace policy, pin updates, the
 * lockfile and signed webhooks. Public answers are closed like the rest of
 * the public API.
 */
import { envelope } from './schemas-public';
import { closed, digest, source, verdict, version } from './schemas-release';
import type { JsonSchema } from './openapi-types';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const slug: JsonSchema = { type: 'string', minLength: 1, maxLength: 214 };
const itemType: JsonSchema = { type: 'string', enum: ['skill', 'plugin'] };
const list = (items: JsonSchema, description: string): JsonSchema => ({
  type: 'array',
  items,
  maxItems: 200,
  uniqueItems: true,
  description,
});
const nullableList = (items: JsonSchema, description: string): JsonSchema => ({
  type: ['array', 'null'],
  items,
  maxItems: 200,
  uniqueItems: true,
  description,
});
const text = { type: 'string', minLength: 1, maxLength: 214 } as const;

export const POLICY_RULES = [
  'minimumVerdict',
  'verifiedPublishersOnly',
  'allowedPublishers',
  'allowedLicenses',
  'allowedTypes',
  'deniedSlugs',
] as const;
const rule: JsonSchema = { type: 'string', enum: [...POLICY_RULES] };
const minimumVerdict: JsonSchema = {
  type: 'string',
  enum: ['clean', 'unscanned', 'suspicious'],
  description: 'The worst verdict allowed (clean < unscanned < suspicious); `malicious` is always refused',
};
const policyFields: Record<string, JsonSchema> = {
  minimumVerdict,
  verifiedPublishersOnly: { type: 'boolean', description: 'Only items whose publisher an operator verified' },
  allowedPublishers: nullableList(text, 'null: any publisher'),
  allowedLicenses: nullableList(text, 'SPDX ids, compared case-insensitively; null: any licence'),
  allowedTypes: nullableList(itemType, 'null: any type'),
  deniedSlugs: list(text, 'Slugs refused whatever else holds'),
};
const policyNames = Object.keys(policyFields);

export const WEBHOOK_EVENTS = [
  'collection.changed',
  'collection.drifted',
  'release.verdict_changed',
  'policy.changed',
] as const;
const webhookEvent: JsonSchema = { type: 'string', enum: [...WEBHOOK_EVENTS] };
const webhookUrl: JsonSchema = {
  type: 'string',
  format: 'uri',
  maxLength: 2000,
  description:
    '`https` on a public address (checked again after DNS at each delivery); private targets and `http` only when the operator allows them',
};
const webhookFields: Record<string, JsonSchema> = {
  id: uuid,
  url: { type: 'string' },
  events: { type: 'array', items: webhookEvent, minItems: 1 },
  description: { type: 'string', maxLength: 500 },
  enabled: { type: 'boolean' },
  disabledReason: {
    type: ['string', 'null'],
    description: 'Why deliveries stopped (it kept failing for 24 hours); null while enabled',
  },
  createdAt: timestamp,
  updatedAt: timestamp,
};
const pinRef = closed(['version', 'digest'], { version, digest });

export const governanceSchemas: Record<string, JsonSchema> = {
  EntryPin: {
    ...closed(['version', 'digest', 'verdict', 'yanked', 'pinnedVerdict'], {
      version,
      digest: { ...digest, description: 'From the catalog when it was pinned, never from the caller' },
      verdict: { ...verdict, description: "The pinned release's verdict now" },
      yanked: { type: 'boolean' },
      pinnedVerdict: {
        ...verdict,
        description: 'The verdict when it was pinned or last acknowledged (`verdict-changed` compares with it)',
      },
    }),
  },
  EntryCompliance: closed(['complies', 'violations'], {
    complies: { type: 'boolean' },
    violations: {
      type: 'array',
      items: closed(['rule', 'message'], {
        rule,
        message: { type: 'string', description: "In the request's language" },
      }),
      description: "Every rule of the workspace policy the entry breaks, in the policy's order",
    },
  }),
  EntryDrift: {
    type: 'object',
    required: ['kind'],
    additionalProperties: false,
    description:
      '`newer-release` (with `version`), `yanked`, `verdict-changed` (with `from` and `to`), `blocked`, `removed`',
    properties: {
      kind: { type: 'string', enum: ['newer-release', 'yanked', 'verdict-changed', 'blocked', 'removed'] },
      version,
      from: verdict,
      to: verdict,
    },
  },
  CollectionCompliance: closed(['complies', 'violationCount'], {
    complies: { type: 'boolean' },
    violationCount: { type: 'integer', minimum: 0 },
  }),
  CollectionDrift: closed(['count'], {
    count: { type: 'integer', minimum: 0, description: 'Entries with at least one drift cause' },
  }),
  WorkspacePolicy: closed(policyNames, policyFields),
  PutWorkspacePolicy: {
    ...closed([], policyFields),
    description: 'A full replacement: a field left out takes its default (the table of docs/governance.md).',
  },
  WorkspacePolicyResult: envelope({
    policy: ref('WorkspacePolicy'),
    updatedAt: { ...nullableTimestamp, description: 'null while the defaults apply' },
    updatedBy: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The account that set it; null while the defaults apply',
    },
  }),
  PinsUpdateRequest: closed([], {
    dryRun: { type: 'boolean', default: false, description: 'List what would change; change nothing' },
    slugs: {
      type: 'array',
      items: slug,
      maxItems: 1000,
      uniqueItems: true,
      description: 'Only these entries; all when absent',
    },
  }),
  PinsUpdateResult: envelope({
    dryRun: { type: 'boolean' },
    changes: {
      type: 'array',
      items: closed(['slug', 'from', 'to'], { slug, from: { oneOf: [{ type: 'null' }, pinRef] }, to: pinRef }),
    },
    skipped: { type: 'array', items: closed(['slug', 'reason'], { slug, reason: { type: 'string' } }) },
    collection: ref('TeamCollection'),
  }),
  Lockfile: closed(['lockfileVersion', 'workspace', 'collection', 'policy', 'entries'], {
    lockfileVersion: { const: 2, description: '2: entries carry `installable`' },
    workspace: closed(['id', 'name'], { id: uuid, name: { type: 'string' } }),
    collection: closed(['id', 'name'], { id: uuid, name: { type: 'string' } }),
    policy: ref('WorkspacePolicy'),
    entries: {
      type: 'array',
      description: 'Sorted by slug; an unpinned entry has `version`, `digest` and `source` null',
      items: closed(
        ['slug', 'type', 'version', 'digest', 'source', 'verdict', 'installable', 'complies', 'violations'],
        {
          slug,
          type: itemType,
          version: { type: ['string', 'null'] },
          digest: { oneOf: [{ type: 'null' }, digest] },
          source: { oneOf: [{ type: 'null' }, source] },
          verdict,
          installable: {
            type: 'boolean',
            description:
              'Install only entries where this is true: a pinned release that is not malicious (a malicious one stays listed, never installable)',
          },
          complies: { type: 'boolean' },
          violations: {
            type: 'array',
            items: rule,
            description: 'Rule names only: the document does not depend on a language',
          },
        },
      ),
    },
  }),
  Webhook: closed(Object.keys(webhookFields), webhookFields),
  NewWebhook: closed(['url', 'events'], {
    url: webhookUrl,
    events: { type: 'array', items: webhookEvent, minItems: 1, uniqueItems: true },
    description: { type: 'string', maxLength: 500 },
  }),
  PatchWebhook: {
    ...closed([], {
      url: webhookUrl,
      events: { type: 'array', items: webhookEvent, minItems: 1, uniqueItems: true },
      description: { type: 'string', maxLength: 500 },
      enabled: { type: 'boolean', description: '`true` again clears `disabledReason`' },
    }),
    minProperties: 1,
  },
  CreatedWebhook: envelope({
    webhook: ref('Webhook'),
    secret: {
      type: 'string',
      pattern: '^whsec_',
      description: 'Shown this once: it keys the HMAC-SHA256 of every delivery',
    },
  }),
  WebhookResult: envelope({ webhook: ref('Webhook') }),
  WebhookList: envelope({ webhooks: { type: 'array', items: ref('Webhook') } }),
  WebhookDelivery: closed(
    [
      'id',
      'eventId',
      'eventType',
      'status',
      'attempts',
      'lastStatusCode',
      'lastError',
      'nextAttemptAt',
      'createdAt',
      'deliveredAt',
    ],
    {
      id: uuid,
      eventId: { ...uuid, description: 'Sent as `Skills-Webhook-Id`: receivers deduplicate on it' },
      eventType: { type: 'string', enum: [...WEBHOOK_EVENTS, 'webhook.test'] },
      status: { type: 'string', enum: ['pending', 'delivered', 'failed', 'abandoned'] },
      attempts: { type: 'integer', minimum: 0 },
      lastStatusCode: { type: ['integer', 'null'] },
      lastError: { type: ['string', 'null'] },
      nextAttemptAt: nullableTimestamp,
      createdAt: timestamp,
      deliveredAt: nullableTimestamp,
    },
  ),
  WebhookDeliveryList: envelope({
    deliveries: { type: 'array', items: ref('WebhookDelivery') },
    pagination: ref('Pagination'),
  }),
  WebhookTestQueued: envelope({
    eventId: { ...uuid, description: 'The `webhook.test` event queued for this endpoint' },
  }),
};
