import request from 'supertest';
import type { Express } from 'express';
import { NO_DETAILS, type Health, type Principal } from '@skills/common';
import { createCatalogApp } from '../../../src/app';
import type { CatalogItem, SearchEngine, SearchQuery, SearchResult } from '../../../src/engines/search-engine';
import { KEYS } from '../../support/gateway-key-pair';
import { silentLogger } from '@skills/common/testing';

const signer = KEYS.signer();
const account: Principal = {
  kind: 'account',
  accountId: '6f1c1d2e-0000-4000-8000-000000000001',
  plan: 'pro',
  keyId: 'k1',
};

/** A strict fake: records each query and answers with a preset result. */
class FakeEngine implements SearchEngine {
  queries: SearchQuery[] = [];
  result: SearchResult = { items: [], total: 0 };
  healthy: Health = { ok: true };
  async search(query: SearchQuery): Promise<SearchResult> {
    this.queries.push(query);
    return this.result;
  }
  async apply(): Promise<never> {
    throw new Error('not used by the routes');
  }
  async reindex(): Promise<never> {
    throw new Error('not used by the routes');
  }
  async health(): Promise<Health> {
    return this.healthy;
  }
  async close(): Promise<void> {}
}

let engine: FakeEngine;
let sut: Express;

beforeEach(() => {
  engine = new FakeEngine();
  sut = createCatalogApp({ engine, verifier: KEYS.verifier('catalog-service'), logger: silentLogger() });
});

function get(url: string, principal: Principal = account, lang = 'en') {
  return request(sut)
    .get(url)
    .set('X-Skills-Principal', signer.sign(principal, 'catalog-service', 'GET', url))
    .set('Accept-Language', lang);
}

const item: CatalogItem = {
  id: '0b5a4d6e-1111-4000-8000-000000000001',
  slug: 'kubernetes-deployer',
  name: 'Kubernetes Deployer',
  description: 'Ships containers',
  type: 'skill',
  ...NO_DETAILS,
  category: 'devops',
  tags: ['k8s'],
  updatedAt: '2026-01-01T00:00:00.000Z',
  latestVersion: '1.4.0',
  verdict: 'clean',
  publisherVerified: true,
};

/** What a search shows when it does not say (docs/trust.md "Safe by default"). */
const SAFE = { trust: ['clean', 'unscanned'] };

describe('GET /api/v1/skills', () => {
  it('hands the engine the mode asked for and says which mode ran', async () => {
    engine.result = { items: [item], total: 1, mode: 'hybrid' };
    const res = await get('/api/v1/skills?q=ship%20containers%20to%20a%20cluster&mode=hybrid');
    expect(res.status).toBe(200);
    expect(engine.queries[0]).toMatchObject({ q: 'ship containers to a cluster', mode: 'hybrid' });
    expect(res.body.data.search).toEqual({ mode: 'hybrid' });
    expect(res.body.data.skills).toEqual([item]);
  });

  it('refuses a mode it does not know, naming the valid ones, and asks the engine nothing', async () => {
    const res = await get('/api/v1/skills?q=ship&mode=neural');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/mode.*lexical, hybrid, semantic/);
    expect(engine.queries).toEqual([]);
  });

  it('answers the items with a pagination object', async () => {
    engine.result = { items: [item], total: 45 };
    const res = await get('/api/v1/skills?page=2&limit=20');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        skills: [item],
        pagination: { page: 2, limit: 20, total: 45, totalPages: 3, hasMore: true },
        search: { mode: 'lexical' },
      },
    });
  });

  it('reports no further page on the last one', async () => {
    engine.result = { items: [item], total: 41 };
    const res = await get('/api/v1/skills?page=3');
    expect(res.body.data.pagination).toEqual({ page: 3, limit: 20, total: 41, totalPages: 3, hasMore: false });
  });

  it('uses page 1, limit 20 and newest first by default, relevance when q is given', async () => {
    await get('/api/v1/skills');
    await get('/api/v1/skills?q=%20%20deploy%20&category=dev-ops&type=plugin');
    await get('/api/v1/skills?q=%20%20');
    await get('/api/v1/skills?sort=relevance');
    await get('/api/v1/skills?q=x&sort=name');
    expect(engine.queries).toEqual([
      { ...SAFE, page: 1, limit: 20, sort: 'newest' },
      { ...SAFE, q: 'deploy', category: 'dev-ops', type: 'plugin', page: 1, limit: 20, sort: 'relevance' },
      { ...SAFE, page: 1, limit: 20, sort: 'newest' },
      { ...SAFE, page: 1, limit: 20, sort: 'newest' },
      { ...SAFE, q: 'x', page: 1, limit: 20, sort: 'name' },
    ]);
  });

  it('passes repeated tags, facets and sort=popular to the engine, and answers its facets and suggestion', async () => {
    engine.result = {
      items: [item],
      total: 1,
      facets: { type: [{ value: 'skill', count: 1 }], category: [{ value: 'devops', count: 1 }] },
      suggestion: { q: 'kubernetes', total: 12 },
    };
    const res = await get('/api/v1/skills?q=kubrnetes&tag=k8s&tag=deploy&tag=k8s&facets=type,category&sort=popular');
    expect(engine.queries).toEqual([
      {
        ...SAFE,
        q: 'kubrnetes',
        tags: ['deploy', 'k8s'],
        facets: ['category', 'type'],
        page: 1,
        limit: 20,
        sort: 'popular',
      },
    ]);
    expect(res.body).toEqual({
      data: {
        skills: [item],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
        search: { mode: 'lexical' },
        facets: engine.result.facets,
        suggestion: { q: 'kubernetes', total: 12 },
      },
    });
    await get('/api/v1/skills?tag=k8s');
    expect(engine.queries[1]).toEqual({ ...SAFE, tags: ['k8s'], page: 1, limit: 20, sort: 'newest' });
  });

  it('asks the engine for the verdicts trust= names, every searchable one for trust=any, and the publisher filter', async () => {
    await get('/api/v1/skills?trust=any');
    await get('/api/v1/skills?trust=suspicious,clean,suspicious');
    await get('/api/v1/skills?trust=unscanned&verifiedPublisher=true&facets=trust,verifiedPublisher');
    await get('/api/v1/skills?verifiedPublisher=false');
    expect(engine.queries).toEqual([
      { trust: ['clean', 'suspicious', 'unscanned'], page: 1, limit: 20, sort: 'newest' },
      { trust: ['clean', 'suspicious'], page: 1, limit: 20, sort: 'newest' },
      {
        trust: ['unscanned'],
        verifiedPublisher: true,
        facets: ['trust', 'verifiedPublisher'],
        page: 1,
        limit: 20,
        sort: 'newest',
      },
      { ...SAFE, verifiedPublisher: false, page: 1, limit: 20, sort: 'newest' },
    ]);
  });

  it('shows clean items alone by default when the deployment hides unscanned ones', async () => {
    sut = createCatalogApp({
      engine,
      verifier: KEYS.verifier('catalog-service'),
      logger: silentLogger(),
      trust: { showsUnscanned: false },
    });
    await get('/api/v1/skills?q=lint');
    await get('/api/v1/skills?trust=unscanned');
    expect(engine.queries.map((q) => q.trust)).toEqual([['clean'], ['unscanned']]);
  });

  it('answers each item with its latest version, verdict and publisher verification', async () => {
    engine.result = { items: [item], total: 1 };
    const res = await get('/api/v1/skills');
    expect(res.body.data.skills[0]).toMatchObject({
      latestVersion: '1.4.0',
      verdict: 'clean',
      publisherVerified: true,
    });
  });

  it.each([
    ['limit=51', '"limit" must be less than or equal to 50', '« limit » doit être inférieur ou égal à 50'],
    ['limit=0', '"limit" must be greater than or equal to 1', '« limit » doit être supérieur ou égal à 1'],
    ['page=0', '"page" must be greater than or equal to 1', '« page » doit être supérieur ou égal à 1'],
    ['limit=abc', '"limit" must be a number', '« limit » doit être un nombre'],
    ['page=1.5', '"page" must be an integer', '« page » doit être un entier'],
    ['type=agent', '"type" must be one of: skill, plugin', "« type » doit valoir l'une de ces valeurs : skill, plugin"],
    [
      'sort=price',
      '"sort" must be one of: relevance, newest, name, popular',
      "« sort » doit valoir l'une de ces valeurs : relevance, newest, name, popular",
    ],
    [
      'facets=category,price',
      '"facets" must be one of: category, type, trust, verifiedPublisher',
      "« facets » doit valoir l'une de ces valeurs : category, type, trust, verifiedPublisher",
    ],
    [
      'trust=malicious',
      '"trust" cannot include "malicious": blocked items are never returned by search (read one by its slug to learn why it was blocked)',
      "« trust » ne peut pas inclure « malicious » : la recherche ne renvoie jamais un élément bloqué (lisez-le par son slug pour savoir pourquoi il l'est)",
    ],
    [
      'trust=clean,malicious',
      '"trust" cannot include "malicious": blocked items are never returned by search (read one by its slug to learn why it was blocked)',
      "« trust » ne peut pas inclure « malicious » : la recherche ne renvoie jamais un élément bloqué (lisez-le par son slug pour savoir pourquoi il l'est)",
    ],
    [
      'trust=clean,risky',
      '"trust" must be one of: any, clean, suspicious, unscanned',
      "« trust » doit valoir l'une de ces valeurs : any, clean, suspicious, unscanned",
    ],
    ['trust=', '"trust" must not be empty', '« trust » ne doit pas être vide'],
    ['trust=a&trust=b', '"trust" must be a string', '« trust » doit être une chaîne'],
    [
      'verifiedPublisher=yes',
      '"verifiedPublisher" must be one of: true, false',
      "« verifiedPublisher » doit valoir l'une de ces valeurs : true, false",
    ],
    ['tag=<51 characters>', '"tag" must be at most 50 characters long', '« tag » doit contenir au plus 50 caractères'],
    ['category=Dev%20Ops', '"category" has an invalid format', '« category » a un format invalide'],
    ['q=<201 characters>', '"q" must be at most 200 characters long', '« q » doit contenir au plus 200 caractères'],
    ['q=a&q=b', '"q" must be a string', '« q » doit être une chaîne'],
    ['catgory=devops', '"catgory" is not an allowed field', "« catgory » n'est pas un champ autorisé"],
    ['page=201&limit=50', '"page" × "limit" must be at most 10000', '« page » × « limit » doit valoir au plus 10000'],
  ])('refuses %s with a message in English and French', async (label, en, fr) => {
    const qs = label.replace('<201 characters>', 'a'.repeat(201)).replace('<51 characters>', 'a'.repeat(51));
    const english = await get(`/api/v1/skills?${qs}`);
    const french = await get(`/api/v1/skills?${qs}`, account, 'fr-FR,fr;q=0.9');
    expect([english.status, english.body]).toEqual([400, { error: en }]);
    expect([french.status, french.body]).toEqual([400, { error: fr }]);
    expect(engine.queries).toEqual([]);
  });

  it('accepts the deepest allowed page and asks the engine for that very page', async () => {
    engine.result = { items: [item], total: 10_001 };
    const res = await get('/api/v1/skills?page=200&limit=50');
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toMatchObject({ page: 200, limit: 50 });
    expect(engine.queries).toEqual([expect.objectContaining({ page: 200, limit: 50 })]);
  });

  it('refuses a request the gateway did not sign', async () => {
    const res = await request(sut).get('/api/v1/skills').set('Accept-Language', 'fr');
    expect([res.status, res.body]).toEqual([401, { error: 'Signature du principal absente ou invalide' }]);
    const other = await request(sut)
      .get('/api/v1/skills?page=2')
      .set('X-Skills-Principal', signer.sign(account, 'catalog-service', 'GET', '/api/v1/skills'));
    expect(other.status).toBe(401);
  });

  it('answers an empty page, not an error, when the signed policy and the request leave nothing to match', async () => {
    const searchPolicy = {
      workspaceId: '6f1c1d2e-0000-4000-8000-0000000000aa',
      verdicts: ['clean' as const],
      verifiedPublishersOnly: false,
      publishers: null,
      licenses: null,
      types: null,
      deniedSlugs: [],
    };
    engine.result = { items: [item], total: 1 };
    const res = await get(`/api/v1/skills?trust=suspicious&facets=trust&workspace=${searchPolicy.workspaceId}`, {
      ...account,
      searchPolicy,
    });
    expect([res.status, res.body]).toEqual([
      200,
      {
        data: {
          skills: [],
          pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false },
          facets: { trust: [] },
          search: { mode: 'lexical' },
        },
      },
    ]);
    expect(engine.queries).toEqual([]);
  });

  it('refuses the admin principal, which has no account', async () => {
    expect((await get('/api/v1/skills', { kind: 'admin' })).status).toBe(403);
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await request(sut)
      .post('/api/v1/skills')
      .set('X-Skills-Principal', signer.sign(account, 'catalog-service', 'POST', '/api/v1/skills'));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('/admin/v1', () => {
  it('is refused to account principals', async () => {
    const url = '/admin/v1/reindex';
    const res = await request(sut)
      .post(url)
      .set('X-Skills-Principal', signer.sign(account, 'catalog-service', 'POST', url));
    expect([res.status, res.body]).toEqual([403, { error: 'Invalid admin token' }]);
  });
});

describe('health endpoints', () => {
  it('answers /healthz and /readyz without a principal', async () => {
    expect((await request(sut).get('/healthz')).body).toEqual({ data: { status: 'ok' } });
    expect((await request(sut).get('/readyz')).body).toEqual({ data: { status: 'ready' } });
    // the probes every process shares (common/src/http/health.ts)
    expect((await request(sut).post('/healthz')).status).toBe(405);
  });

  it('names the dependency that is not ready', async () => {
    engine.healthy = { ok: false, reason: 'connection refused' };
    const res = await request(sut).get('/readyz');
    expect([res.status, res.body]).toEqual([503, { error: 'Not ready: search engine not answering' }]);
  });
});
