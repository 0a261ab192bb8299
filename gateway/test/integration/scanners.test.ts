/**
 * Scanner credentials (docs/trust.md "Scanner credentials"): issued and
 * revoked by operators, stored as a hash, accepted on the verdict route only
 * and refused with 403 everywhere else, audited under their own actor.
 */
import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '@skills/common';
import { eventually } from '@skills/common/testing';
import { ROUTES } from '../../src/http/proxy/route-table';
import { startHarness, type Echo, type Harness } from './harness';
import { signUp, write } from './profile-harness';

const VERDICTS = '/api/v1/skills/pdf-skill/versions/1.4.0/verdicts';
const VERDICT = { verdict: 'clean', summary: 'no findings' };
const EN_ONLY_VERDICTS = 'A scanner credential may only record verdicts';
const FR_ONLY_VERDICTS = "Un identifiant de scanner ne peut qu'enregistrer des verdicts";

interface Scanner {
  id: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

interface AuditEvent {
  action: string;
  actor: { kind: string; scannerId?: string };
  target: string | null;
  details: Record<string, unknown>;
}

describe('scanner credentials', () => {
  let h: Harness;
  let db: Sequelize;
  beforeAll(async () => {
    // every log line, so that the token can be looked for in all of them
    h = await startHarness({ logLevel: 'debug' });
    db = createSequelize({ url: h.db.url, poolMax: 1 });
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    await h?.close();
  }, 30_000);

  const issue = async (name: string): Promise<{ scanner: Scanner; token: string }> =>
    (await h.admin('post', '/admin/v1/scanners', { name }).expect(201)).body.data;
  const asScanner = (token: string) => h.http.post(VERDICTS).set('Authorization', `Bearer ${token}`).send(VERDICT);
  const auditOf = async (action: string): Promise<AuditEvent[]> =>
    (await h.admin('get', `/admin/v1/audit-events?action=${action}`).expect(200)).body.data.events;

  it('issues a token shown once, lists the scanner without it and stores only its SHA-256', async () => {
    const res = await h.admin('post', '/admin/v1/scanners', { name: 'static-analysis' }).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { scanner, token } = res.body.data as { scanner: Scanner; token: string };
    expect(token).toMatch(/^sks_[0-9A-Za-z]{40}$/);
    expect(scanner).toEqual({
      id: expect.any(String),
      name: 'static-analysis',
      createdAt: expect.any(String),
      revokedAt: null,
    });

    const listed = (await h.admin('get', '/admin/v1/scanners').expect(200)).body.data.scanners as Scanner[];
    expect(listed).toContainEqual(scanner);
    expect(JSON.stringify(listed)).not.toContain(token);

    const [row] = await db.query<Record<string, unknown>>(
      `SELECT to_jsonb(s)::text AS whole, encode(token_hash, 'hex') AS hash FROM gateway.scanners s WHERE id = :id`,
      {
        replacements: { id: scanner.id },
        type: QueryTypes.SELECT,
      },
    );
    expect(row?.hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(String(row?.whole)).not.toContain(token.slice(4));
  });

  it('refuses names outside 1–64 of a-z0-9- and a second active scanner of one name, in both languages', async () => {
    for (const name of ['Bad_Name', '', 'a'.repeat(65), 'spaces here']) {
      await h.admin('post', '/admin/v1/scanners', { name }).expect(400);
    }
    await issue('a'.repeat(64));
    const first = await issue('virus-scan');
    const taken = await h.admin('post', '/admin/v1/scanners', { name: 'virus-scan' }).expect(409);
    expect(taken.body.error).toBe('An active scanner named "virus-scan" already exists');
    const fr = await h
      .admin('post', '/admin/v1/scanners', { name: 'virus-scan' })
      .set('Accept-Language', 'fr')
      .expect(409);
    expect(fr.body.error).toBe('Un scanner actif nommé « virus-scan » existe déjà');
    // a revoked scanner's name may be issued again
    await h.admin('delete', `/admin/v1/scanners/${first.scanner.id}`).expect(200);
    await issue('virus-scan');
  });

  it('forwards the verdict route with the scanner principal, signed for collections-service, and audits it as the scanner', async () => {
    const { scanner, token } = await issue('llm-review');
    const res = await asScanner(token).set('X-Request-Id', 'req-verdict').expect(201);
    const echo = res.body.data as Echo;
    expect(echo.upstream).toBe('collections');
    expect(echo).toMatchObject({
      method: 'POST',
      url: VERDICTS,
      principal: { kind: 'scanner', scannerId: scanner.id, name: 'llm-review' },
    });
    expect(JSON.parse(echo.bodyText)).toEqual(VERDICT);
    // the token stops at the gateway
    expect(JSON.stringify(echo.headers)).not.toContain(token);

    const recorded = await eventually(async () =>
      (await auditOf('verdict.record')).find((e) => e.actor.scannerId === scanner.id),
    );
    expect(recorded).toMatchObject({
      actor: { kind: 'scanner', scannerId: scanner.id },
      target: 'pdf-skill',
      details: { version: '1.4.0', verdict: 'clean', status: 201 },
    });
  });

  it('answers 403 in English and French wherever else a scanner credential is used, and the services see nothing', async () => {
    const { token } = await issue('elsewhere');
    const before = h.catalog.received.length + h.collections.received.length;
    const elsewhere: Array<[method: 'get' | 'post' | 'put' | 'delete', path: string]> = [
      ['get', '/api/v1/skills?q=pdf'],
      ['get', '/api/v1/skills/pdf-skill'],
      ['get', VERDICTS],
      ['get', '/api/v1/skills/pdf-skill/versions/1.4.0'],
      ['post', '/api/v1/skills/pdf-skill/reports'],
      ['get', '/api/v1/me/collections'],
      ['post', '/api/v1/me/collections'],
      ['get', '/api/v1/workspaces/3f1c2b9a-2f5e-4f59-9d2c-7a1e2b3c4d5e/members'],
      ['get', '/admin/v1/scanners'],
      ['get', '/admin/v1/audit-events'],
      // the gateway's own routes: a console-session one and a sign-in one
      ['get', '/api/v1/me/api-keys'],
      ['post', '/api/v1/auth/sign-in'],
      ['get', '/api/v1/no-such-route'],
      ['post', '/admin/v1/skills/pdf-skill/versions'],
      ['put', '/admin/v1/skills/pdf-skill/versions/1.4.0/override'],
    ];
    for (const [method, path] of elsewhere) {
      const en = await h.http[method](path).set('Authorization', `Bearer ${token}`).send({ name: 'x' });
      expect([path, en.status, en.body.error]).toEqual([path, 403, EN_ONLY_VERDICTS]);
      const fr = await h.http[method](path)
        .set('Authorization', `Bearer ${token}`)
        .set('Accept-Language', 'fr')
        .send({ name: 'x' });
      expect([path, fr.status, fr.body.error]).toEqual([path, 403, FR_ONLY_VERDICTS]);
    }
    expect(h.catalog.received.length + h.collections.received.length).toBe(before);
  });

  it('is refused on every collection route of the route table, whatever the method, and forwards nothing (hostile input)', async () => {
    const { token } = await issue('collection-prober');
    const before = h.collections.received.length;
    const ids = { id: '3f1c2b9a-2f5e-4f59-9d2c-7a1e2b3c4d5e', collectionId: '9a4e2b7c-1d3f-4a6e-8b5c-2e7d0f1a9c63' };
    const collectionRoutes = ROUTES.filter((r) => r.pattern.includes('/collections'));
    expect(collectionRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of collectionRoutes) {
      const path = route.pattern.replace(/:(\w+)/g, (_, name: string) => ids[name as keyof typeof ids]);
      const res = await h.http[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path)
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'stolen', skillSlug: 'pdf-skill' });
      expect([route.method, path, res.status, res.body.error]).toEqual([route.method, path, 403, EN_ONLY_VERDICTS]);
    }
    expect(h.collections.received.length).toBe(before);
  });

  it('answers 401 to hostile scanner tokens (too long, wrong alphabet, another scheme) without forwarding them', async () => {
    const before = h.collections.received.length;
    for (const header of [
      `Bearer sks_${'A'.repeat(10_000)}`,
      `Bearer sks_${'é'.repeat(40)}`,
      `Bearer sks_${'a'.repeat(39)}`,
      `Basic sks_${'a'.repeat(40)}`,
      'Bearer sks_',
    ]) {
      const res = await h.http.post(VERDICTS).set('Authorization', header).send(VERDICT);
      expect([header.slice(0, 20), res.status]).toEqual([header.slice(0, 20), header.startsWith('Basic') ? 403 : 401]);
    }
    expect(h.collections.received.length).toBe(before);
  });

  it('refuses an API key or a console session on the verdict route with 403, and no credential with 401', async () => {
    const { key } = await h.accountWithKey('pro');
    const byKey = await h.http.post(VERDICTS).set('Authorization', `Bearer ${key}`).send(VERDICT).expect(403);
    expect(byKey.body.error).toBe('Only a scanner credential may record verdicts');
    const browser = await signUp(h);
    const bySession = await write(browser, 'post', VERDICTS, VERDICT).set('Accept-Language', 'fr').expect(403);
    expect(bySession.body.error).toBe('Seul un identifiant de scanner peut enregistrer des verdicts');
    await h.http.post(VERDICTS).send(VERDICT).expect(401);
    await h.http.post(VERDICTS).set('Authorization', 'Bearer sks_not-a-token').send(VERDICT).expect(401);
  });

  it('revokes a scanner: its token answers 401 from the next request on, and both changes are audited', async () => {
    const { scanner, token } = await issue('revoked-soon');
    // in the authentication cache now
    await asScanner(token).expect(201);
    const revoked = await h
      .admin('delete', `/admin/v1/scanners/${scanner.id}`)
      .set('X-Request-Id', 'req-revoke-scanner')
      .expect(200);
    expect(revoked.body.data.scanner).toEqual({ ...scanner, revokedAt: expect.any(String) });
    const refused = await asScanner(token).expect(401);
    expect(refused.body.error).toBe('Invalid or revoked scanner credential');
    // and elsewhere it is no credential at all any more
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${token}`).expect(401);

    const created = (await auditOf('scanner.create')).find((e) => e.target === scanner.id);
    const revokedEvent = (await auditOf('scanner.revoke')).find((e) => e.target === scanner.id);
    expect(created).toMatchObject({ actor: { kind: 'admin' }, details: { name: 'revoked-soon' } });
    expect(revokedEvent).toMatchObject({ actor: { kind: 'admin' }, details: { name: 'revoked-soon' } });
    expect(JSON.stringify([created, revokedEvent])).not.toContain(token);

    await h.admin('delete', '/admin/v1/scanners/3f1c2b9a-2f5e-4f59-9d2c-7a1e2b3c4d5e').expect(404);
    await h.admin('delete', '/admin/v1/scanners/not-a-uuid').expect(404);
  });

  it('never writes a token to the log', async () => {
    const { scanner, token } = await issue('logged-maybe');
    await asScanner(token).expect(201);
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${token}`).expect(403);
    await h.admin('delete', `/admin/v1/scanners/${scanner.id}`).expect(200);
    await asScanner(token).expect(401);
    // the requests above were logged (at info), only never with the token
    await eventually(async () => (h.logged.some((line) => JSON.stringify(line).includes(VERDICTS)) ? true : undefined));
    expect(h.logged.filter((line) => JSON.stringify(line).includes(token.slice(4)))).toEqual([]);
  });
});

describe('failed scanner authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ authFailuresPerMinute: 3 });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('counts like a failed API key: 429 with Retry-After over the budget, recorded as scanner_token', async () => {
    const { token } = (await h.admin('post', '/admin/v1/scanners', { name: 'budgeted' }).expect(201)).body.data as {
      token: string;
    };
    // known good before the budget runs out: cached, so it never waits on the budget
    await h.http.post(VERDICTS).set('Authorization', `Bearer ${token}`).send(VERDICT).expect(201);
    const wrong = `sks_${'x'.repeat(40)}`;
    for (let i = 0; i < 3; i += 1)
      await h.http.post(VERDICTS).set('Authorization', `Bearer ${wrong}`).send(VERDICT).expect(401);
    const blocked = await h.http.post(VERDICTS).set('Authorization', `Bearer ${wrong}`).send(VERDICT).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const events = await eventually(async () => {
      const found = (await h.admin('get', '/admin/v1/audit-events?action=auth.failure').expect(200)).body.data
        .events as AuditEvent[];
      const count = found
        .filter((e) => e.details.reason === 'scanner_token')
        .reduce((sum, e) => sum + Number(e.details.count), 0);
      return count >= 3 ? found : undefined;
    });
    expect(events.some((e) => e.details.reason === 'scanner_token')).toBe(true);
  });
});
