// @not-store-specific the services' principal checks; the database is a fixture
/**
 * Trust boundary gateway → services: each service, started on its own port
 * exactly as main.ts starts it with public keys only, refuses every request
 * that does not carry a valid, unexpired principal signed by the gateway's
 * key for that very service, method, path and body — so nothing can reach a
 * service around the gateway. Data-driven: every way of getting the header
 * wrong × a read and a write of each service. Then the reindex's own
 * credential: it reads items and opens nothing else.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EMPTY_BODY,
  PRINCIPAL_EXPIRED_HEADER,
  PRINCIPAL_HEADER,
  bodyDigest,
  type Principal,
  type PrincipalAudience,
} from '@skills/common';
import { createTestDatabase, testPrincipalKeys, type TestDatabase, silentLogger } from '@skills/common/testing';
import { loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';

const KEYS = testPrincipalKeys();
const signer = KEYS.signer();
const READER_TOKEN = `rdr_${randomUUID()}${randomUUID()}`;
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
  {
    service: 'collections',
    method: 'POST',
    path: '/api/v1/me/collections',
    principal: ACCOUNT,
    body: { name: 'Around the gateway' },
    accepted: 201,
  },
  // an unknown workspace: 404 shows the request got past the principal check
  {
    service: 'collections',
    method: 'GET',
    path: `/api/v1/workspaces/${randomUUID()}/collections`,
    principal: ACCOUNT,
    accepted: 404,
  },
  {
    service: 'collections',
    method: 'PUT',
    path: '/admin/v1/skills/trust-test',
    principal: ADMIN,
    body: { name: 'Trust', category: 'devops' },
    accepted: 201,
  },
  { service: 'collections', method: 'GET', path: '/admin/v1/items?limit=1', principal: ADMIN, accepted: 200 },
  { service: 'catalog', method: 'GET', path: '/api/v1/skills?q=lint', principal: ACCOUNT, accepted: 200 },
  { service: 'catalog', method: 'POST', path: '/admin/v1/reindex', principal: ADMIN, accepted: 202 },
];

/** What the gateway signs a target's body as: the digest of the exact bytes `send` puts on the wire. */
const bodyOf = (t: Target) => (t.body === undefined ? EMPTY_BODY : bodyDigest(JSON.stringify(t.body)));
const audienceOf = (t: Target): PrincipalAudience =>
  t.service === 'catalog' ? 'catalog-service' : 'collections-service';
const otherAudience = (t: Target): PrincipalAudience =>
  t.service === 'catalog' ? 'collections-service' : 'catalog-service';
/** A header as the gateway would sign it for `t`, with `changes` to what it is bound to. */
const signed = (
  t: Target,
  changes: { principal?: Principal; audience?: PrincipalAudience; method?: string; path?: string } = {},
) =>
  signer.sign(
    changes.principal ?? t.principal,
    changes.audience ?? audienceOf(t),
    changes.method ?? t.method,
    changes.path ?? t.path,
    bodyOf(t),
  );

/** Each way a header can be wrong, as the header to send (undefined: none) for a target. */
const FORGERIES: Record<string, (t: Target) => string | undefined> = {
  'no header': () => undefined,
  'not a principal': () => 'Bearer admin',
  'unsigned claims': (t) => signed(t).split('.').slice(0, 2).join('.'),
  'forged signature': (t) => {
    const [head, payload] = signed(t).split('.');
    return `${head}.${payload}.${Buffer.alloc(64, 7).toString('base64url')}`;
  },
  'claims swapped under a valid signature': (t) => {
    const [head, , signature] = signed(t).split('.');
    const claims = {
      aud: audienceOf(t),
      p: ADMIN,
      m: t.method,
      u: t.path,
      b: bodyOf(t),
      iat: Date.now(),
      exp: Date.now() + 5_000,
      jti: randomUUID(),
    };
    return `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  },
  'signed with a key the service does not hold': (t) =>
    testPrincipalKeys().signer().sign(t.principal, audienceOf(t), t.method, t.path, bodyOf(t)),
  // what a holder of the former shared secret could still make: an HMAC over well-formed claims
  'an HMAC in place of the signature': (t) => {
    const [head, payload] = signed(t).split('.');
    return `${head}.${payload}.${createHmac('sha256', 'a-shared-secret-of-enough-length-0123').update(`${head}.${payload}`).digest('base64url')}`;
  },
  'meant for the other service': (t) => signed(t, { audience: otherAudience(t) }),
  'bound to another path': (t) => signed(t, { path: `${t.path.split('?')[0]}/other` }),
  'bound to another query': (t) => signed(t, { path: `${t.path}${t.path.includes('?') ? '&' : '?'}page=2` }),
  'bound to another method': (t) => signed(t, { method: t.method === 'GET' ? 'DELETE' : 'GET' }),
};

/** A genuine header past its 5 s lifetime (common/src/principal.ts): refused, but as the gateway's to sign again. */
const expired = (t: Target) =>
  KEYS.signer({ now: () => Date.now() - 6_000 }).sign(t.principal, audienceOf(t), t.method, t.path, bodyOf(t));

let db: TestDatabase;
let keysDir: string;
const urls: Record<Target['service'], string> = { collections: '', catalog: '' };
const closers: Array<() => Promise<void>> = [];

async function send(
  t: Pick<Target, 'service' | 'method' | 'path' | 'body'>,
  header: string | undefined,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...extra };
  if (header !== undefined) headers[PRINCIPAL_HEADER] = header;
  if (t.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${urls[t.service]}${t.path}`, {
    method: t.method,
    headers,
    body: t.body === undefined ? undefined : JSON.stringify(t.body),
  });
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    expiredMark: response.headers.get(PRINCIPAL_EXPIRED_HEADER),
    body: (await response.json()) as { error?: unknown },
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const logger = silentLogger('trust-test');
  keysDir = await mkdtemp(join(tmpdir(), 'trust-keys-'));
  // The services get the public key only; no process here but the test holds the private one.
  const { publicKeysFile } = await KEYS.writeTo(keysDir);
  const shared = {
    DATABASE_URL: db.url,
    PRINCIPAL_PUBLIC_KEYS_FILE: publicKeysFile,
    ITEMS_READER_TOKEN: READER_TOKEN,
    PORT: '0',
    LOG_LEVEL: 'silent',
  };
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
  await rm(keysDir, { recursive: true, force: true });
});

describe.each(TARGETS.map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const))(
  '%s called directly',
  (_name, target) => {
    it.each(Object.keys(FORGERIES))('refuses a request with %s: 401 envelope', async (forgery) => {
      const r = await send(target, FORGERIES[forgery]?.(target));
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: expect.any(String) });
      expect(r.requestId).toBeTruthy();
    });

    it('refuses an expired header with a marked 503, which the gateway answers by signing again, never a 401 its client would take for a bad key', async () => {
      const r = await send(target, expired(target));
      expect(r.status).toBe(503);
      expect(r.expiredMark).toBe('1');
      expect(r.body).toEqual({ error: expect.any(String) });
    });

    it('accepts a header signed for this method, path and body once, and refuses its replay', async () => {
      const header = signed(target);
      const first = await send(target, header);
      expect(first.status).toBe(target.accepted);
      const replay = await send(target, header);
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ error: expect.any(String) });
    });
  },
);

describe('a write whose body is not the one signed', () => {
  it.each(TARGETS.filter((t) => t.body !== undefined).map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const))(
    '%s → 401',
    async (_name, target) => {
      const r = await send(
        target,
        signer.sign(target.principal, audienceOf(target), target.method, target.path, bodyDigest('{"name":"signed"}')),
      );
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'Missing or invalid principal signature' });
    },
  );
});

describe('an account principal on an admin route of a service', () => {
  it.each(
    TARGETS.filter((t) => t.principal.kind === 'admin').map((t) => [`${t.service} ${t.method} ${t.path}`, t] as const),
  )('%s → 403', async (_name, target) => {
    const r = await send(target, signed(target, { principal: ACCOUNT }));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: expect.any(String) });
  });
});

describe("the reindex's items reader token", () => {
  const items = { service: 'collections', method: 'GET', path: '/internal/v1/items?limit=1' } as const;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('reads item states, and only with the token', async () => {
    const ok = await send(items, undefined, bearer(READER_TOKEN));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ data: { items: expect.any(Array) } });
    for (const headers of [
      {},
      bearer(`${READER_TOKEN}x`),
      bearer(READER_TOKEN.slice(0, -1)),
      { authorization: READER_TOKEN },
    ]) {
      const refused = await send(items, undefined, headers);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'Missing or invalid items reader token' });
    }
    // an admin principal does not open it either: the route has one credential
    expect((await send(items, signed({ ...items, principal: ADMIN, accepted: 200 }))).status).toBe(401);
  });

  it('opens nothing else: no write, no admin read, no collection, and it is no principal', async () => {
    const elsewhere = TARGETS.filter((t) => t.service === 'collections');
    for (const target of elsewhere) {
      expect((await send(target, undefined, bearer(READER_TOKEN))).status).toBe(401);
      expect((await send(target, READER_TOKEN)).status).toBe(401);
    }
    expect((await send({ ...items, method: 'DELETE' }, undefined, bearer(READER_TOKEN))).status).toBe(405);
  });

  it('is what a reindex reads the system of record with: catalog-service signs nothing', async () => {
    // the signature tests above started a reindex of their own: it may still run (409) on a loaded machine
    const start = () =>
      send({ service: 'catalog', method: 'POST', path: '/admin/v1/reindex' }, signed(TARGETS[6] as Target));
    let started = await start();
    for (const until = Date.now() + 30_000; started.status === 409 && Date.now() < until; started = await start()) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(started.status).toBe(202);
    const id = (started.body as { data: { job: { id: string } } }).data.job.id;
    const path = `/admin/v1/reindex/${id}`;
    const deadline = Date.now() + 30_000;
    let status = 'running';
    while (status === 'running') {
      if (Date.now() > deadline) throw new Error(`reindex ${id} still running after 30 s`);
      const polled = await send(
        { service: 'catalog', method: 'GET', path },
        signer.sign(ADMIN, 'catalog-service', 'GET', path),
      );
      status = (polled.body as { data: { job: { status: string } } }).data.job.status;
    }
    expect(status).toBe('succeeded');
  });
});
