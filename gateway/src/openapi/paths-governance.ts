/**
 * Governed team collections (docs/governance.md): the workspace policy,
 * pin updates, the lockfile and signed webhooks.
 */
import { PAGE_ERRORS, headerRef, parameterRef, pathParam, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { Operation, PathItem } from './openapi-types';

const TEAM = 'Team collections';
const NOW = '2026-11-27T09:30:00.000Z';
const WORKSPACE_ID = '5d2c8e1a-7b4f-4e9d-a3c6-1f0b9e8d7c24';
const MANAGERS = 'Owners and admins; members and viewers get 403. Scope: `workspaces:manage`.';

const noAccess: Message[] = [['workspace.noAccess']];
const roleTooLow: Message[] = [['workspace.noAccess'], ['workspace.roleTooLow']];
const workspaceMissing: Message[] = [['workspace.notFound']];
const collectionMissing: Message[] = [['workspace.notFound'], ['collection.notFound']];
// an unknown endpoint, or another workspace's, is a 404 "Webhook not found" of collections-service
const webhookMissing: Message[] = [['workspace.notFound'], ['webhook.notFound']];
const collectionIds = [parameterRef('WorkspaceId'), parameterRef('TeamCollectionId')];
const webhookId = pathParam('webhookId', "Webhook endpoint id; another workspace's answers 404.");
const webhookIds = [parameterRef('WorkspaceId'), webhookId];

const examplePolicy = {
  minimumVerdict: 'clean',
  verifiedPublishersOnly: false,
  allowedPublishers: null,
  allowedLicenses: ['MIT', 'Apache-2.0'],
  allowedTypes: null,
  deniedSlugs: ['left-pad-skill'],
};
const exampleWebhook = {
  id: '3e1f5a7c-9b2d-4f6e-8a0c-1d3e5f7a9b2c',
  url: 'https://ci.example.com/hooks/skills',
  events: ['collection.drifted', 'release.verdict_changed'],
  description: 'CI',
  enabled: true,
  disabledReason: null,
  createdAt: NOW,
  updatedAt: NOW,
};
const DIGEST = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

const getPolicy = operation({
  operationId: 'getWorkspacePolicy',
  summary: 'Read the workspace policy',
  description: 'Any member. Without a policy set, the defaults with `updatedAt` and `updatedBy` null.',
  tag: TEAM,
  kind: 'public',
  parameters: [parameterRef('WorkspaceId')],
  success: {
    status: '200',
    description: 'The policy every entry and every search of the team is checked against.',
    schema: schemaRef('WorkspacePolicyResult'),
    example: { data: { policy: examplePolicy, updatedAt: NOW, updatedBy: '2e8f4a6c-9b1d-4f3e-a5c7-8d0b2f4e6a19' } },
  },
  errors: { '403': noAccess, '404': workspaceMissing },
});

const putPolicy = operation({
  operationId: 'setWorkspacePolicy',
  summary: 'Replace the workspace policy',
  description:
    `${MANAGERS} Every entry is re-evaluated on its next read; searches of the workspace (\`workspace=\`, bound keys) apply it ` +
    'at once through this gateway and within 2 s through any other.',
  tag: TEAM,
  kind: 'public',
  parameters: [parameterRef('WorkspaceId')],
  body: {
    schema: schemaRef('PutWorkspacePolicy'),
    examples: { strict: { summary: 'Clean, permissive licences', value: examplePolicy } },
  },
  success: {
    status: '200',
    description: 'The policy now in force.',
    schema: schemaRef('WorkspacePolicyResult'),
    example: { data: { policy: examplePolicy, updatedAt: NOW, updatedBy: '2e8f4a6c-9b1d-4f3e-a5c7-8d0b2f4e6a19' } },
  },
  errors: { '400': [['validation.unknownField', { field: 'color' }]], '403': roleTooLow, '404': workspaceMissing },
});

const updatePins = operation({
  operationId: 'updateCollectionPins',
  summary: 'Move pins to the latest allowed releases',
  description:
    'Owners, admins and members (viewers 403; scope `collections:write`). Each pin moves to the latest release the policy allows that is not ' +
    'yanked, and its current verdict is acknowledged; blocked and removed items are skipped with their reason. A dry run changes nothing.',
  tag: TEAM,
  kind: 'public',
  parameters: collectionIds,
  body: {
    schema: schemaRef('PinsUpdateRequest'),
    examples: { preview: { summary: 'Preview', value: { dryRun: true } } },
  },
  success: {
    status: '200',
    description: 'What changed (or would), what was skipped, and the collection as it is now.',
    schema: schemaRef('PinsUpdateResult'),
  },
  errors: { '400': [['validation.unknownField', { field: 'digest' }]], '403': roleTooLow, '404': collectionMissing },
});

const lockfile: Operation = operation({
  operationId: 'getCollectionLockfile',
  summary: "Export the collection's lockfile",
  description:
    'Any member (scope `collections:read`). The document itself, not the `{ data }` envelope; two exports of an unchanged collection are ' +
    'byte-identical, and the ETag is the SHA-256 of those bytes. JSON Schema: docs/lockfile.schema.json.',
  tag: TEAM,
  kind: 'public',
  parameters: [...collectionIds, parameterRef('IfNoneMatch')],
  success: {
    status: '200',
    description: 'The lockfile, as an attachment.',
    schema: schemaRef('Lockfile'),
    headers: {
      ETag: headerRef('ETag'),
      'Content-Disposition': {
        description: '`attachment`, with a file name (always sent)',
        required: false,
        schema: { type: 'string', pattern: '^attachment' },
      },
    },
    example: {
      lockfileVersion: 2,
      workspace: { id: WORKSPACE_ID, name: 'Platform team' },
      collection: { id: '9a4e2b7c-1d3f-4a6e-8b5c-2e7d0f1a9c63', name: 'Onboarding kit' },
      policy: examplePolicy,
      entries: [
        {
          slug: 'pdf-tools',
          type: 'skill',
          version: '1.2.0',
          digest: DIGEST,
          source: { repository: 'https://github.com/acme/pdf-tools', ref: 'v1.2.0' },
          verdict: 'clean',
          installable: true,
          complies: true,
          violations: [],
        },
      ],
    },
  },
  errors: { '403': noAccess, '404': collectionMissing },
});
// The service answers If-None-Match itself: its 304 carries the ETag, and no Cache-Control of the gateway's.
lockfile.responses['304'] = {
  description: 'The lockfile named by `If-None-Match` is still current; no body.',
  headers: { ETag: headerRef('ETag') },
};

function webhookOp(spec: Omit<Parameters<typeof operation>[0], 'tag' | 'kind'>): Operation {
  return operation({
    ...spec,
    tag: TEAM,
    kind: 'public',
    description: `${MANAGERS}${spec.description ? ` ${spec.description}` : ''}`,
  });
}

const listWebhooks = webhookOp({
  operationId: 'listWebhooks',
  summary: "List the workspace's webhook endpoints",
  parameters: [parameterRef('WorkspaceId')],
  success: {
    status: '200',
    description: 'The endpoints, never their secrets.',
    schema: schemaRef('WebhookList'),
    example: { data: { webhooks: [exampleWebhook] } },
  },
  errors: { '403': roleTooLow, '404': workspaceMissing },
});

const createWebhook = webhookOp({
  operationId: 'createWebhook',
  summary: 'Register a signed webhook endpoint',
  description:
    'Deliveries are signed `Skills-Webhook-Signature: v1=<hex>`, HMAC-SHA256 keyed by the secret over `<timestamp>.<body>` (docs/governance.md). ' +
    'The host must be and resolve only to public addresses (one message either way, never the address); a workspace holds at most 20 endpoints.',
  parameters: [parameterRef('WorkspaceId')],
  body: {
    schema: schemaRef('NewWebhook'),
    examples: {
      ci: {
        summary: 'Drift and verdicts',
        value: { url: exampleWebhook.url, events: exampleWebhook.events, description: 'CI' },
      },
    },
  },
  success: {
    status: '201',
    description: 'Created; the secret is shown this once.',
    schema: schemaRef('CreatedWebhook'),
    example: { data: { webhook: exampleWebhook, secret: 'whsec_3q2xV9yK7mB4nT1pR8sL6wE0uA5cZ2dF' } },
  },
  errors: {
    '400': [
      ['validation.required', { field: 'url' }],
      ['webhook.privateTarget'],
      ['webhook.unresolvable', { host: 'hooks.example.com' }],
    ],
    '403': roleTooLow,
    '404': workspaceMissing,
    '409': [['quota.webhooksPerWorkspace', { limit: 20 }]],
  },
});

const getWebhook = webhookOp({
  operationId: 'getWebhook',
  summary: 'Read a webhook endpoint',
  parameters: webhookIds,
  success: {
    status: '200',
    description: 'The endpoint.',
    schema: schemaRef('WebhookResult'),
    example: { data: { webhook: exampleWebhook } },
  },
  errors: { '403': roleTooLow, '404': webhookMissing },
});

const patchWebhook = webhookOp({
  operationId: 'updateWebhook',
  summary: 'Change a webhook endpoint, or enable it again',
  parameters: webhookIds,
  body: {
    schema: schemaRef('PatchWebhook'),
    examples: { enable: { summary: 'Enable again', value: { enabled: true } } },
  },
  success: {
    status: '200',
    description: 'The endpoint as it is now.',
    schema: schemaRef('WebhookResult'),
    example: { data: { webhook: exampleWebhook } },
  },
  errors: { '400': [['body.empty']], '403': roleTooLow, '404': webhookMissing },
});

const deleteWebhook = webhookOp({
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook endpoint',
  parameters: webhookIds,
  success: {
    status: '200',
    description: 'Deleted.',
    schema: schemaRef('Deleted'),
    example: { data: { deleted: true } },
  },
  errors: { '403': roleTooLow, '404': webhookMissing },
});

const deliveries = webhookOp({
  operationId: 'listWebhookDeliveries',
  summary: 'The delivery log of an endpoint',
  description: 'Newest first, paginated.',
  parameters: [...webhookIds, parameterRef('Page'), parameterRef('Limit')],
  success: { status: '200', description: 'One page of deliveries.', schema: schemaRef('WebhookDeliveryList') },
  errors: { '400': PAGE_ERRORS, '403': roleTooLow, '404': webhookMissing },
});

const testWebhook = webhookOp({
  operationId: 'testWebhook',
  summary: 'Queue a test delivery',
  parameters: webhookIds,
  description: 'At most 5 a minute per endpoint; beyond, 429 with `Retry-After`.',
  success: {
    status: '202',
    description: 'A `webhook.test` delivery is queued.',
    schema: schemaRef('WebhookTestQueued'),
  },
  errors: {
    '403': roleTooLow,
    '404': webhookMissing,
    '429': [
      ['webhook.testThrottled', { limit: 5, seconds: 48 }],
      ['rateLimit.exceeded', { seconds: 12 }],
    ],
  },
});

export const governancePaths: Record<string, PathItem> = {
  '/api/v1/workspaces/{id}/policy': { get: getPolicy, put: putPolicy },
  '/api/v1/workspaces/{id}/collections/{collectionId}/pins:update': { post: updatePins },
  '/api/v1/workspaces/{id}/collections/{collectionId}/lockfile': { get: lockfile },
  '/api/v1/workspaces/{id}/webhooks': { get: listWebhooks, post: createWebhook },
  '/api/v1/workspaces/{id}/webhooks/{webhookId}': { get: getWebhook, patch: patchWebhook, delete: deleteWebhook },
  '/api/v1/workspaces/{id}/webhooks/{webhookId}/deliveries': { get: deliveries },
  '/api/v1/workspaces/{id}/webhooks/{webhookId}/test': { post: testWebhook },
};
