/** SkillsClient against a recording fake fetch: what it sends and how it reports failures. */
import { ApiError, SkillsAdminClient, SkillsClient } from '../../src';
import { KEY, fakeFetch } from '../support/fake-fetch';

const collection = { id: 'c1', name: 'Daily', description: '', skills: [], createdAt: 't', updatedAt: 't' };

describe('SkillsClient', () => {
  it('sends the key, the language and the query, and unwraps data', async () => {
    const result = { skills: [], pagination: { page: 2, limit: 5, total: 0, totalPages: 0, hasMore: false } };
    const fake = fakeFetch(200, { data: result });
    const sut = new SkillsClient({ baseUrl: 'http://api.test/', apiKey: KEY, language: 'fr', fetch: fake.impl });

    await expect(sut.searchSkills({ q: 'git commit', type: 'skill', limit: 5, page: 2 })).resolves.toEqual(result);

    expect(fake.sent[0]).toMatchObject({
      method: 'GET',
      url: 'http://api.test/api/v1/skills?q=git+commit&type=skill&limit=5&page=2',
    });
    expect(fake.sent[0]?.headers).toMatchObject({ Authorization: `Bearer ${KEY}`, 'Accept-Language': 'fr' });
    expect(fake.sent[0]?.body).toBeUndefined();
  });

  it('sends tags as repeated tag= and facets comma-joined', async () => {
    const fake = fakeFetch(200, {
      data: { skills: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false } },
    });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await sut.searchSkills({ tags: ['docker', 'lint'], facets: ['category', 'type'], sort: 'popular' });
    expect(fake.sent[0]?.url).toBe(
      'http://api.test/api/v1/skills?sort=popular&tag=docker&tag=lint&facets=category%2Ctype',
    );
  });

  it('sends the search mode asked and hands back the one that ran', async () => {
    const answer = {
      skills: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false },
      search: { mode: 'semantic' },
    };
    const fake = fakeFetch(200, { data: answer });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await expect(sut.searchSkills({ q: 'turn a pdf into markdown', mode: 'semantic' })).resolves.toEqual(answer);
    expect(fake.sent[0]?.url).toBe('http://api.test/api/v1/skills?q=turn+a+pdf+into+markdown&mode=semantic');
  });

  it('sends trust as any or a comma list, and verifiedPublisher as true or false', async () => {
    const fake = fakeFetch(200, {
      data: { skills: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false } },
    });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await sut.searchSkills({
      trust: ['clean', 'suspicious'],
      verifiedPublisher: false,
      facets: ['trust', 'verifiedPublisher'],
    });
    await sut.searchSkills({ trust: 'any', verifiedPublisher: true });
    expect(fake.sent.map((s) => s?.url)).toEqual([
      'http://api.test/api/v1/skills?facets=trust%2CverifiedPublisher&trust=clean%2Csuspicious&verifiedPublisher=false',
      'http://api.test/api/v1/skills?trust=any&verifiedPublisher=true',
    ]);
  });

  it('reads releases and their verdict history, and reports an item', async () => {
    const fake = fakeFetch(200, { data: { release: { version: '1.4.0' }, report: { id: 'r1' } } });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await expect(sut.getSkillVersion('pdf', '2.0.0-rc.1')).resolves.toEqual({ version: '1.4.0' });
    await sut.listSkillVersionsPage('pdf', { page: 2 });
    await sut.listSkillVersionVerdictsPage('pdf', '1.4.0', { limit: 5 });
    await expect(sut.reportSkill('pdf', { reason: 'spam', text: 'ads' })).resolves.toEqual({ id: 'r1' });
    expect(fake.sent.map((s) => `${s?.method} ${s?.url}`)).toEqual([
      'GET http://api.test/api/v1/skills/pdf/versions/2.0.0-rc.1',
      'GET http://api.test/api/v1/skills/pdf/versions?page=2',
      'GET http://api.test/api/v1/skills/pdf/versions/1.4.0/verdicts?limit=5',
      'POST http://api.test/api/v1/skills/pdf/reports',
    ]);
    expect(JSON.parse(String(fake.sent[3]?.body))).toEqual({ reason: 'spam', text: 'ads' });
  });

  it('sends the admin token and the custom methods of docs/trust.md, a version kept in its one segment', async () => {
    const fake = fakeFetch(200, { data: { release: { version: '1.4.0' }, report: { id: 'r1' }, scanners: [] } });
    const sut = new SkillsAdminClient({ baseUrl: 'http://api.test', adminToken: 'admin-token', fetch: fake.impl });
    await sut.yankRelease('pdf', '1.0.0/x', 'steals tokens');
    await sut.overrideVerdict('pdf', '1.4.0', 'clean', 'reviewed');
    await sut.resolveReport('r1', 'done');
    await sut.listPublishersPage({ verified: false });
    await expect(sut.listScanners()).resolves.toEqual([]);
    expect(fake.sent.map((s) => `${s?.method} ${s?.url}`)).toEqual([
      'POST http://api.test/admin/v1/skills/pdf/versions/1.0.0%2Fx:yank',
      'PUT http://api.test/admin/v1/skills/pdf/versions/1.4.0/override',
      'POST http://api.test/admin/v1/reports/r1:resolve',
      'GET http://api.test/admin/v1/publishers?verified=false',
      'GET http://api.test/admin/v1/scanners',
    ]);
    expect(fake.sent[0]?.headers).toMatchObject({ Authorization: 'Bearer admin-token' });
    expect(JSON.parse(String(fake.sent[1]?.body))).toEqual({ verdict: 'clean', note: 'reviewed' });
  });

  it('keeps a path prefix of the base URL and encodes path parameters', async () => {
    const fake = fakeFetch(200, { data: { collection } });
    const sut = new SkillsClient({ baseUrl: 'https://host.test/skills', apiKey: KEY, fetch: fake.impl });

    await sut.getWorkspaceCollection('w/1', 'c 2');

    expect(fake.sent[0]?.url).toBe('https://host.test/skills/api/v1/workspaces/w%2F1/collections/c%202');
  });

  it('posts JSON with the Idempotency-Key when given', async () => {
    const fake = fakeFetch(201, { data: { collection } });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });

    await expect(sut.createMyCollection({ name: 'Daily' }, { idempotencyKey: 'k-1' })).resolves.toEqual(collection);

    expect(fake.sent[0]).toMatchObject({
      method: 'POST',
      url: 'http://api.test/api/v1/me/collections',
      body: '{"name":"Daily"}',
    });
    expect(fake.sent[0]?.headers).toMatchObject({ 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' });
  });

  it('sends a PATCH body as given and resolves DELETE to nothing', async () => {
    const fake = fakeFetch(200, { data: { collection } });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await sut.updateMyCollection('c1', { skillSlug: 'git', removePrivateSkillId: 'p1' });
    expect(fake.sent[0]).toMatchObject({ method: 'PATCH', body: '{"skillSlug":"git","removePrivateSkillId":"p1"}' });

    const deleted = fakeFetch(200, { data: { deleted: true } });
    const del = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: deleted.impl });
    await expect(del.deleteWorkspaceCollection('w1', 'c1')).resolves.toBeUndefined();
    expect(deleted.sent[0]).toMatchObject({
      method: 'DELETE',
      url: 'http://api.test/api/v1/workspaces/w1/collections/c1',
    });
  });

  it('answers a collection with its ETag and sends it back as If-Match', async () => {
    const fake = fakeFetch(200, { data: { collection } }, { etag: '"v1"' });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await expect(sut.getMyCollectionTagged('c1')).resolves.toEqual({ collection, etag: '"v1"' });
    await expect(sut.updateWorkspaceCollectionTagged('w1', 'c1', { name: 'x' }, { ifMatch: '"v1"' })).resolves.toEqual({
      collection,
      etag: '"v1"',
    });
    await sut.deleteMyCollection('c1', { ifMatch: '"v1"' });
    expect(fake.sent.map((s) => s.headers['If-Match'])).toEqual([undefined, '"v1"', '"v1"']);
    expect(fake.sent[2]).toMatchObject({ method: 'DELETE', url: 'http://api.test/api/v1/me/collections/c1' });
  });

  it('removes a workspace member, or the caller with "me"', async () => {
    const fake = fakeFetch(200, { data: { removed: true } });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await expect(sut.removeWorkspaceMember('w1', 'me')).resolves.toBeUndefined();
    expect(fake.sent[0]).toMatchObject({ method: 'DELETE', url: 'http://api.test/api/v1/workspaces/w1/members/me' });
  });

  it('throws ApiError with the status, the server message and the request id', async () => {
    const fake = fakeFetch(401, { error: 'Clé API invalide ou révoquée' }, { 'x-request-id': 'req-42' });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: 'wrong', language: 'fr', fetch: fake.impl });

    const error = await sut.listMyCollections().catch((err: unknown) => err);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Clé API invalide ou révoquée', requestId: 'req-42' });
  });

  it('reads Retry-After on 429 and survives a body that is not JSON', async () => {
    const limited = fakeFetch(429, { error: 'Rate limit exceeded; retry in 7 s' }, { 'retry-after': '7' });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: limited.impl });
    await expect(sut.searchSkills()).rejects.toMatchObject({ status: 429, retryAfter: 7 });

    const broken = fakeFetch(502, '<html>bad gateway</html>', { 'content-type': 'text/html' });
    const other = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: broken.impl });
    await expect(other.searchSkills()).rejects.toMatchObject({ status: 502, message: 'HTTP 502' });
  });

  it('refuses a 2xx answer without the data envelope', async () => {
    const fake = fakeFetch(200, { skills: [] });
    const sut = new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
    await expect(sut.searchSkills()).rejects.toBeInstanceOf(ApiError);
  });
});
