/**
 * The proxied routes of governed team collections (docs/governance.md):
 * the workspace policy, pin updates, the lockfile and signed webhooks.
 * collections-service decides who may (roles); the gateway checks the key's
 * scope first: reading what a team uses needs `collections:read`, changing
 * its pins `collections:write`, and setting its policy or its webhooks
 * (what the team's systems are told) `workspaces:manage`.
 */
import type { ProxyRoute } from '../proxy/route-table';

const WORKSPACE = '/api/v1/workspaces/:id';
const COLLECTION = `${WORKSPACE}/collections/:collectionId`;
const WEBHOOK = `${WORKSPACE}/webhooks/:webhookId`;

const route = (
  method: string,
  pattern: string,
  scope: ProxyRoute['scope'],
  extra: Partial<ProxyRoute> = {},
): ProxyRoute => ({
  method,
  pattern,
  upstream: 'collections',
  auth: 'key',
  scope,
  ...extra,
});

export const GOVERNANCE_ROUTES: readonly ProxyRoute[] = [
  route('GET', `${WORKSPACE}/policy`, 'collections:read'),
  // a replaced policy applies to this gateway's next search at once, not after its cache's 2 s
  route('PUT', `${WORKSPACE}/policy`, 'workspaces:manage', {
    dropsSearchPolicy: 'id',
    audit: { action: 'workspace.policy_set', target: 'id' },
  }),
  route('POST', `${COLLECTION}/pins:update`, 'collections:write', {
    audit: { action: 'collection.pins_update', target: 'collectionId', paramFields: ['id'], bodyFields: ['dryRun'] },
  }),
  // the document itself, with its ETag and Content-Disposition: relayed as the service answers it
  route('GET', `${COLLECTION}/lockfile`, 'collections:read', { serviceConditional: true }),
  route('GET', `${WORKSPACE}/webhooks`, 'workspaces:manage'),
  // the body names the URL and events; the secret is in the answer only, never in the record
  route('POST', `${WORKSPACE}/webhooks`, 'workspaces:manage', {
    audit: { action: 'webhook.create', target: 'id', bodyFields: ['url'] },
  }),
  route('GET', WEBHOOK, 'workspaces:manage'),
  route('PATCH', WEBHOOK, 'workspaces:manage', {
    audit: { action: 'webhook.update', target: 'webhookId', paramFields: ['id'], bodyFields: ['url', 'enabled'] },
  }),
  route('DELETE', WEBHOOK, 'workspaces:manage', {
    audit: { action: 'webhook.delete', target: 'webhookId', paramFields: ['id'] },
  }),
  route('GET', `${WEBHOOK}/deliveries`, 'workspaces:manage'),
  route('POST', `${WEBHOOK}/test`, 'workspaces:manage', {
    audit: { action: 'webhook.test', target: 'webhookId', paramFields: ['id'] },
  }),
];
