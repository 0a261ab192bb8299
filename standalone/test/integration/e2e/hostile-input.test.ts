/**
 * Hostile input, property-based: every public and admin endpoint of one
 * real standalone stack gets generated query strings, path ids, headers and
 * bodies (see hostile/arbitraries.ts). Whatever comes in: never a 5xx; a 4xx
 * is the `{ error: string }` envelope; every answer has an X-Request-Id; and
 * a rejected write changes nothing (state read through the API before and
 * after). Reproduce a failure with HOSTILE_SEED=<seed printed below>.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  contentType,
  hostileBody,
  hostileHeaders,
  hostileJson,
  hostileQuery,
  pathSegment,
  urlString,
} from './hostile/arbitraries';
import { newAccount, startStack, type Json, type Stack } from './helpers';

const SEED = Number(process.env.HOSTILE_SEED ?? 20261122);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 30);

interface Endpoint {
  method: string;
  /** path template; `{name}` takes a valid fixture id or a hostile string */
  path: string;
  auth: 'key' | 'admin' | 'scanner';
  query?: readonly string[];
  body?: readonly string[] | 'ndjson';
}

/** Every route of the gateway that takes input (health and docs take none). Deletes last: they consume fixtures. */
const ENDPOINTS: readonly Endpoint[] = [
  { method: 'GET', path: '/api/v1/skills', auth: 'key', query: ['q', 'category', 'type', 'limit', 'page', 'sort'] },
  { method: 'GET', path: '/api/v1/me/collections', auth: 'key', query: ['page'] },
  { method: 'POST', path: '/api/v1/me/collections', auth: 'key', body: ['name', 'description'] },
  { method: 'GET', path: '/api/v1/me/collections/{collection}', auth: 'key' },
  {
    method: 'PATCH',
    path: '/api/v1/me/collections/{collection}',
    auth: 'key',
    body: ['name', 'description', 'skillSlug', 'removeSkillSlug', 'privateSkillId', 'removePrivateSkillId'],
  },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/collections', auth: 'key' },
  { method: 'POST', path: '/api/v1/workspaces/{workspace}/collections', auth: 'key', body: ['name', 'description'] },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/collections/{team}', auth: 'key' },
  {
    method: 'PATCH',
    path: '/api/v1/workspaces/{workspace}/collections/{team}',
    auth: 'key',
    body: ['name', 'description', 'skillSlug', 'removeSkillSlug', 'version'],
  },
  { method: 'GET', path: '/api/v1/skills/{slug}', auth: 'key' },
  { method: 'GET', path: '/api/v1/me/private-skills', auth: 'key', query: ['page', 'limit'] },
  { method: 'POST', path: '/api/v1/me/private-skills', auth: 'key', body: ['name', 'description'] },
  { method: 'GET', path: '/api/v1/workspaces', auth: 'key', query: ['page', 'limit'] },
  { method: 'POST', path: '/api/v1/workspaces', auth: 'key', body: ['name'] },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}', auth: 'key' },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/members', auth: 'key', query: ['page', 'limit'] },
  { method: 'PUT', path: '/api/v1/workspaces/{workspace}/members/{account}', auth: 'key', body: ['role'] },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/invitations', auth: 'key' },
  {
    method: 'POST',
    path: '/api/v1/workspaces/{workspace}/invitations',
    auth: 'key',
    body: ['role', 'email', 'expiresInDays'],
  },
  { method: 'POST', path: '/api/v1/invitations/preview', auth: 'key', body: ['token'] },
  { method: 'POST', path: '/api/v1/invitations/accept', auth: 'key', body: ['token'] },
  { method: 'POST', path: '/admin/v1/accounts', auth: 'admin', body: ['email', 'name', 'plan'] },
  { method: 'GET', path: '/admin/v1/accounts/{account}', auth: 'admin' },
  { method: 'PATCH', path: '/admin/v1/accounts/{account}', auth: 'admin', body: ['plan'] },
  { method: 'POST', path: '/admin/v1/accounts/{account}/api-keys', auth: 'admin', body: ['name'] },
  {
    method: 'PUT',
    path: '/admin/v1/skills/{slug}',
    auth: 'admin',
    body: ['name', 'description', 'type', 'category', 'status', 'tags'],
  },
  { method: 'POST', path: '/admin/v1/skills:import', auth: 'admin', body: 'ndjson' },
  { method: 'GET', path: '/admin/v1/items', auth: 'admin', query: ['after', 'limit'] },
  { method: 'GET', path: '/admin/v1/audit-events', auth: 'admin', query: ['action', 'accountId', 'before', 'limit'] },
  { method: 'POST', path: '/admin/v1/accounts/{account}/private-skills', auth: 'admin', body: ['name', 'description'] },
  { method: 'POST', path: '/admin/v1/workspaces', auth: 'admin', body: ['name', 'ownerAccountId'] },
  { method: 'PUT', path: '/admin/v1/workspaces/{workspace}/members/{account}', auth: 'admin', body: ['role'] },
  { method: 'POST', path: '/admin/v1/reindex', auth: 'admin', body: [] },
  { method: 'GET', path: '/admin/v1/reindex/{job}', auth: 'admin' },
  // versions and trust (docs/trust.md): a huge digest, a bad semver, a verdict for a release that does not exist
  { method: 'GET', path: '/api/v1/skills/{slug}/versions/{version}', auth: 'key' },
  {
    method: 'POST',
    path: '/admin/v1/skills/{slug}/versions',
    auth: 'admin',
    body: ['version', 'digest', 'publishedAt', 'source'],
  },
  {
    method: 'POST',
    path: '/api/v1/skills/{slug}/versions/{version}/verdicts',
    auth: 'scanner',
    body: ['verdict', 'summary', 'reportUrl'],
  },
  {
    method: 'PUT',
    path: '/admin/v1/skills/{slug}/versions/{version}/override',
    auth: 'admin',
    body: ['verdict', 'note'],
  },
  { method: 'PUT', path: '/admin/v1/publishers/{publisher}', auth: 'admin', body: ['verified', 'note'] },
  { method: 'POST', path: '/api/v1/skills/{slug}/reports', auth: 'key', body: ['reason', 'text'] },
  // governed team collections (docs/governance.md): policies with huge lists, pins, lockfiles, webhook targets
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/policy', auth: 'key' },
  {
    method: 'PUT',
    path: '/api/v1/workspaces/{workspace}/policy',
    auth: 'key',
    body: [
      'minimumVerdict',
      'verifiedPublishersOnly',
      'allowedPublishers',
      'allowedLicenses',
      'allowedTypes',
      'deniedSlugs',
    ],
  },
  {
    method: 'POST',
    path: '/api/v1/workspaces/{workspace}/collections/{team}/pins:update',
    auth: 'key',
    body: ['dryRun', 'slugs'],
  },
  { method: 'GET', path: '/api/v1/workspaces/{workspace}/collections/{team}/lockfile', auth: 'key' },
  {
    method: 'POST',
    path: '/api/v1/workspaces/{workspace}/webhooks',
    auth: 'key',
    body: ['url', 'events', 'description'],
  },
  {
    method: 'PATCH',
    path: '/api/v1/workspaces/{workspace}/webhooks/{webhook}',
    auth: 'key',
    body: ['url', 'events', 'description', 'enabled'],
  },
  {
    method: 'GET',
    path: '/api/v1/workspaces/{workspace}/webhooks/{webhook}/deliveries',
    auth: 'key',
    query: ['page', 'limit'],
  },
  { method: 'POST', path: '/api/v1/workspaces/{workspace}/webhooks/{webhook}/test', auth: 'key', body: [] },
  { method: 'DELETE', path: '/admin/v1/api-keys/{key}', auth: 'admin' },
  { method: 'DELETE', path: '/api/v1/workspaces/{workspace}/webhooks/{webhook}', auth: 'key' },
  { method: 'DELETE', path: '/admin/v1/workspaces/{workspace}/members/{account}', auth: 'admin' },
  { method: 'DELETE', path: '/api/v1/workspaces/{workspace}/members/{account}', auth: 'key' },
  { method: 'DELETE', path: '/api/v1/workspaces/{workspace}/invitations/{invitation}', auth: 'key' },
  { method: 'DELETE', path: '/admin/v1/skills/{slug}', auth: 'admin' },
  { method: 'DELETE', path: '/api/v1/workspaces/{workspace}/collections/{team}', auth: 'key' },
  { method: 'DELETE', path: '/api/v1/me/collections/{collection}', auth: 'key' },
];

let stack: Stack;
/** valid values of the path parameters; writes aim at throwaway fixtures, never at the caller's own key or plan */
const fixtures: Record<string, string> = {};
let inputsTried = 0;
let rejectedWrites = 0;

async function ok(method: string, path: string, token: string, json?: unknown): Promise<Json> {
  const r = await stack.client.call(method, path, { token, json });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Another key of the owner, for the snapshots (the stack's limits are raised: budgets are per account). */
async function ownerKey(): Promise<string> {
  const r = await ok('POST', `/admin/v1/accounts/${stack.info.accountId}/api-keys`, stack.admin, {});
  return r.data.apiKey.key as string;
}

const snapshotKeys: string[] = [];
/** the key the generated requests carry */
let fuzzKey: string;
/** the scanner credential the verdict route's requests carry */
let scannerToken: string;
let snapshots = 0;

/** The state a write could touch, read through the API: catalog items, the caller's collections, the workspace, both accounts. */
async function snapshot(): Promise<string> {
  const key = snapshotKeys[snapshots++ % snapshotKeys.length] as string;
  const parts = await Promise.all([
    ok('GET', '/admin/v1/items?limit=5000', stack.admin),
    ok('GET', '/api/v1/me/collections', key),
    ok('GET', `/api/v1/workspaces/${fixtures.workspace}/collections`, key),
    ok('GET', `/api/v1/workspaces/${fixtures.workspace}/members`, key),
    ok('GET', `/api/v1/workspaces/${fixtures.workspace}/invitations`, key),
    ok('GET', `/admin/v1/accounts/${stack.info.accountId}`, stack.admin),
    ok('GET', `/admin/v1/accounts/${fixtures.account}`, stack.admin),
    // the target item's releases: a status and body, as the deletes at the end remove the item
    stack.client
      .call('GET', `/api/v1/skills/${fixtures.slug}/versions/${fixtures.version}`, { token: key })
      .then((r) => [r.status, r.body]),
    stack.client
      .call('GET', `/api/v1/skills/${fixtures.slug}/versions`, { token: key })
      .then((r) => [r.status, r.body]),
    ok('GET', '/admin/v1/publishers?limit=50', stack.admin),
    ok('GET', '/admin/v1/reports?limit=50', stack.admin),
    ok('GET', `/api/v1/workspaces/${fixtures.workspace}/policy`, key),
    ok('GET', `/api/v1/workspaces/${fixtures.workspace}/webhooks`, key),
  ]);
  // A key's last use is bookkeeping of reads, not state a rejected write may change.
  return JSON.stringify(parts, (k, v: unknown) => (k === 'lastUsedAt' ? undefined : v));
}

const authorization = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | undefined>('valid') },
  { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 1, arbitrary: urlString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '').slice(0, 200)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('Basic YWRtaW46YWRtaW4=', 'Bearer', 'bearer  ', 'Bearer sk_live_' + 'A'.repeat(32)),
  },
);

function requestArbitrary(endpoint: Endpoint) {
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const paramValues = fc.tuple(
    ...params.map((name) =>
      fc.oneof({ weight: 2, arbitrary: fc.constant(fixtures[name] as string) }, { weight: 1, arbitrary: urlString }),
    ),
  );
  const body =
    endpoint.body === 'ndjson'
      ? fc
          .array(hostileJson, { minLength: 1, maxLength: 4 })
          .map((lines) => lines.map((l) => JSON.stringify(l)).join('\n'))
      : endpoint.body
        ? fc.option(
            hostileBody(endpoint.body).map((b) => JSON.stringify(b)),
            { freq: 6 },
          )
        : fc.option(
            hostileJson.map((b) => JSON.stringify(b)),
            { freq: 1 },
          );
  const ctype =
    endpoint.body === 'ndjson'
      ? fc.constantFrom('application/x-ndjson', 'application/json', 'text/plain')
      : contentType;
  return fc.record({
    params: paramValues,
    query: endpoint.query ? fc.option(hostileQuery(endpoint.query), { freq: 4 }) : fc.constant(null),
    headers: hostileHeaders,
    auth: authorization,
    body,
    contentType: ctype,
  });
}

beforeAll(async () => {
  // a webhook fixture on loopback (no delivery reaches it: nothing listens on port 9)
  stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  const { info, admin } = stack;
  const victim = await newAccount(stack, 'pro');
  const team = await ok('POST', `/api/v1/workspaces/${info.workspaceId}/collections`, info.apiKey, {
    name: 'Hostile target',
  });
  const invitation = await ok('POST', `/api/v1/workspaces/${info.workspaceId}/invitations`, info.apiKey, {
    role: 'viewer',
  });
  await ok('PUT', '/admin/v1/skills/hostile-target', admin, {
    name: 'Hostile target',
    category: 'devops',
    publisher: 'Hostile Labs',
  });
  const digest = `sha256:${'ab'.repeat(32)}`;
  await ok('POST', '/admin/v1/skills/hostile-target/versions', admin, {
    version: '1.0.0',
    digest,
    source: { repository: 'https://github.com/hostile/target', ref: 'v1.0.0' },
  });
  scannerToken = (await ok('POST', '/admin/v1/scanners', admin, { name: 'hostile-fuzz' })).data.token as string;
  const webhook = await ok('POST', `/api/v1/workspaces/${info.workspaceId}/webhooks`, info.apiKey, {
    url: 'http://127.0.0.1:9/hook',
    events: ['collection.changed'],
  });
  Object.assign(fixtures, {
    collection: info.collectionId,
    workspace: info.workspaceId,
    team: team.data.collection.id,
    account: victim.id,
    key: victim.keyId,
    slug: 'hostile-target',
    version: '1.0.0',
    publisher: 'Hostile Labs',
    job: randomUUID(),
    invitation: invitation.data.invitation.id,
    webhook: webhook.data.webhook.id,
  });
  for (let i = 0; i < 2; i++) snapshotKeys.push(await ownerKey());
  // what "changes nothing" is compared over holds the fixtures, so a change to them would show
  const state = await snapshot();
  for (const id of [
    fixtures.collection,
    fixtures.team,
    fixtures.account,
    fixtures.invitation,
    fixtures.webhook,
    'hostile-target',
  ]) {
    if (!state.includes(id as string)) throw new Error(`the hostile-input snapshot misses ${id}`);
  }
  fuzzKey = await ownerKey();
  console.log(`hostile input: seed ${SEED}, ${RUNS} runs per endpoint (HOSTILE_SEED / HOSTILE_RUNS to change)`);
}, 180_000);

afterAll(async () => {
  console.log(
    `hostile input: ${inputsTried} generated requests over ${ENDPOINTS.length} endpoints, ${rejectedWrites} rejected writes checked for no change (seed ${SEED})`,
  );
  await stack?.dispose();
});

describe.each(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const))(
  '%s under hostile input',
  (_name, endpoint) => {
    it('never answers 5xx, always the error envelope with a request id, and a rejected write changes nothing', async () => {
      const write = endpoint.method !== 'GET';
      let before = write ? await snapshot() : '';
      let tried = 0;
      let rejected = 0;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(endpoint), async (input) => {
          let i = 0;
          const path = endpoint.path.replace(/\{(\w+)\}/g, () => pathSegment(input.params[i++] as string));
          const url = `${stack.info.url}${path}${input.query ? `?${input.query}` : ''}`;
          const headers: Record<string, string> = { ...input.headers };
          const token = endpoint.auth === 'admin' ? stack.admin : endpoint.auth === 'scanner' ? scannerToken : fuzzKey;
          if (input.auth === 'valid') headers.authorization = `Bearer ${token}`;
          else if (input.auth !== undefined) headers.authorization = input.auth;
          if (input.body !== null) headers['content-type'] = input.contentType;
          inputsTried += 1;
          tried += 1;
          const response = await fetch(url, { method: endpoint.method, headers, body: input.body ?? undefined });
          const text = await response.text();
          const what = `${endpoint.method} ${url} → ${response.status} ${text.slice(0, 300)}`;
          if (response.status >= 500) throw new Error(`5xx: ${what}`);
          if (!response.headers.get('x-request-id')) throw new Error(`no X-Request-Id: ${what}`);
          if (response.status >= 400) {
            let body: Json;
            try {
              body = JSON.parse(text);
            } catch {
              throw new Error(`not JSON: ${what}`);
            }
            if (Object.keys(body).join() !== 'error' || typeof body.error !== 'string' || body.error === '')
              throw new Error(`not the envelope: ${what}`);
          }
          if (!write) return;
          const after = await snapshot();
          if (response.status >= 400) {
            rejectedWrites += 1;
            rejected += 1;
            if (after !== before) throw new Error(`a rejected write changed the state: ${what}`);
          }
          before = after;
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // the property held over requests that were made, and for a write over refusals that were compared
      expect(tried).toBe(RUNS);
      if (write) expect(rejected).toBeGreaterThan(0);
    }, 120_000);
  },
);

describe('the NUL character, which Postgres text cannot hold', () => {
  it.each([
    ['POST', '/api/v1/me/collections', { name: 'a\u0000b' }],
    ['PATCH', '/api/v1/me/collections/{collection}', { description: 'x', name: 'ok\u0000' }],
    ['PUT', '/admin/v1/skills/{slug}', { name: 'Nul', category: 'dev\u0000ops' }],
    ['POST', '/admin/v1/accounts', { email: 'nul@example.com', plan: 'pro', ['na\u0000me']: 'x' }],
  ])(
    '%s %s with a NUL in the body → 400, nothing stored (instead of a silently altered "\\0")',
    async (method, template, json) => {
      const before = await snapshot();
      const token = template.startsWith('/admin') ? stack.admin : snapshotKeys[0];
      const r = await stack.client.call(
        method,
        template.replace(/\{(\w+)\}/g, (_m, name: string) => fixtures[name] as string),
        { token, json },
      );
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'Request body must not contain the NUL character (\\u0000)' });
      expect(await snapshot()).toEqual(before);
    },
  );
});
