/**
 * Trust boundary gateway → services: each service, started on its own port
 * exactly as main.ts starts it, refuses every request that does not carry a
 * valid, unexpired principal signed for that very method, path and body — so
 * nothing can reach a service around the gateway. Data-driven: every way of
 * getting the header wrong × a read and a write of each service.
 */
import { randomUUID } from 'node:crypto';
import { EMPTY_BODY, PRINCIPAL_HEADER, PrincipalSigner, bodyDigest, createLogger, type Principal } from '@skills/common';
import { createTestDatabase, type TestDatabase } from '@skills/common/testing';
import { loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';

const SECRET = 'principal-secret-for-the-trust-tests-0123456789';
const signer = new PrincipalSigner({ secret: SECRET });
const ACCOUNT: Principal = { kind: 'account', accountId: randomUUID(), plan: 'pro', keyId: randomUUID() };
const ADMIN: Principal = { kind: 'admin' };

interface Target {
  service: 'collections' | 'catalog';
  method: string;
  path: string;
  principal: Principal;
  body?: unknown;
  /** the answer to a correctly signed request: past the principal check */
  accepted: number;
}

const TARGETS: readonly Target[] = [
  { service: 'collections', method: 'GET', path: '/api/v1/me/collections', principal: ACCOUNT, accepted: 200 },
  { service: 'collections', method: 'POST', path: '/api/v1/me/collections', principal: ACCOUNT, body: { name: 'Around the gateway' }, accepted: 201 },
  // an unknown workspace: 404 shows the request got past the principal check
  { service: 'collections', method: 'GET', path: `/api/v1/workspaces/${randomUUID()}/collections`, principal: ACCOUNT, accepted: 404 },
  { service: 'collections', method: 'PUT', path: '/admin/v1/skills/trust-test', principal: ADMIN, body: { name: 'Trust', category: 'devops' }, accepted: 201 },
  { service: 'collections', method: 'GET', path: '/admin/v1/items?limit=1', principal: ADMIN, accepted: 200 },
  { service: 'catalog', method: 'GET', path: '/api/v1/skills?q=lint', principal: ACCOUNT, accepted: 200 },
  { service: 'catalog', method: 'POST', path: '/admin/v1/reindex', principal: ADMIN, accepted: 202 },
];

/** What the gateway signs a target's body as: the digest of the exact bytes `send` puts on the wire. */
const bodyOf = (t: Target) => (t.body === undefined ? EMPTY_BODY : bodyDigest(JSON.stringify(t.body)));

/** Each way a header can be wrong, as the header to send (undefined: none) for a target. */
const FORGERIES: Record<string, (t: Target) => string | undefined> = {
  'no header': () => undefined,
  'not a principal': () => 'Bearer admin',
  'unsigned claims': (t) => signer.sign(t.principal, t.method, t.path).split('.').slice(0, 2).join('.'),
  'forged signature': (t) => {
    const [v, payload] = signer.sign(t.principal, t.method, t.path).split('.');
    return `${v}.${payload}.${Buffer.alloc(32, 7).toString('base64url')}`;
  },
  'claims swapped under a valid signature': (t) => {
    const [v, , signature] = signer.sign(t.principal, t.method, t.path).split('.');
    const claims = { p: ADMIN, m: t.method, u: t.path, iat: Date.now(), exp: Date.now() + 30_000, jti: randomUUID() };
    return `${v}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  },
  'wrong secret': (t) => new PrincipalSigner({ secret: 'another-secret-of-enough-length-0123456789' }).sign(t.principal, t.method, t.path),
  // the lifetime is 5 s (common/src/principal.ts)
  expired: (t) => new PrincipalSigner({ secret: SECRET, now: () => Date.now() - 6_000 }).sign(t.principal, t.method, t.path, bodyOf(t)),
  'bound to another path': (t) => signer.sign(t.principal, t.method, `${t.path.split('?')[0]}/other`),
  'bound to another query': (t) => signer.sign(t.principal, t.method, `${t.path}${t.path.includes('?') ? '&' : '?'}page=2`),
  'bound to another method': (t) => signer.sign(t.principal, t.method === 'GET' ? 'DELETE' : 'GET', t.path),
};

let db: TestDatabase;
const urls: Record<Target['service'], string> = { collections: '', catalog: '' };
const closers: Array<() => Promise<void>> = [];

async function send(t: Target, header: string | undefined) {
  const headers: Record<string, string> = {};
  if (header !== undefined) headers[PRINCIPAL_HEADER] = header;
  if (t.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${urls[t.service]}${t.path}`, {
    method: t.method,
    headers,
    body: t.body === undefined ? undefined : JSON.stringify(t.body),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), body: (await response.json()) as { error?: unknown } };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const logger = createLogger({ service: 'trust-test', level: 'silent' });
  const shared = { DATABASE_URL: db.url, PRINCIPAL_SECRET: SECRET, PORT: '0', LOG_LEVEL: 'silent' };
  const collections = await startCollectionsService(loadCollectionsConfig(shared), logger);
  closers.push(() => collections.close());
  const catalog = await startCatalogService(loadCatalogConfig({ ...shared, COLLECTIONS_URL: collections.url }), logger);
  closers.push(() => catalog.close());
  urls.collections = collections.url;
  urls.catalog = catalog.url;
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await db?.drop();
});

describe.each(TARGETS.map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const))('%s called directly', (_name, target) => {
  it.each(Object.keys(FORGERIES))('refuses a request with %s: 401 envelope', async (forgery) => {
    const r = await send(target, FORGERIES[forgery]?.(target));
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: expect.any(String) });
    expect(r.requestId).toBeTruthy();
  });

  it('accepts a header signed for this method, path and body once, and refuses its replay', async () => {
    const header = signer.sign(target.principal, target.method, target.path, bodyOf(target));
    const first = await send(target, header);
    expect(first.status).toBe(target.accepted);
    const replay = await send(target, header);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: expect.any(String) });
  });
});

describe('a write whose body is not the one signed', () => {
  it.each(TARGETS.filter((t) => t.body !== undefined).map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const))(
    '%s → 401',
    async (_name, target) => {
      const r = await send(target, signer.sign(target.principal, target.method, target.path, bodyDigest('{"name":"signed"}')));
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'Missing or invalid principal signature' });
    },
  );
});

describe('an account principal on an admin route of a service', () => {
  it.each(TARGETS.filter((t) => t.principal.kind === 'admin').map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const))(
    '%s → 403',
    async (_name, target) => {
      const r = await send(target, signer.sign(ACCOUNT, target.method, target.path, bodyOf(target)));
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: expect.any(String) });
    },
  );
});
