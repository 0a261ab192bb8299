/** The governance methods of SkillsClient (docs/governance.md) against a recording fake fetch. */
import { SkillsClient } from '../../src';
import { KEY, fakeFetch } from '../support/fake-fetch';

const client = (fake: { impl: typeof fetch }) =>
  new SkillsClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: fake.impl });
const requests = (fake: ReturnType<typeof fakeFetch>) => fake.sent.map((s) => `${s.method} ${s.url}`);

describe('SkillsClient governance methods', () => {
  it('reads and replaces the workspace policy', async () => {
    const answer = { policy: { minimumVerdict: 'clean', allowedLicenses: ['MIT'] }, updatedAt: null, updatedBy: null };
    const fake = fakeFetch(200, { data: answer });
    const sut = client(fake);
    await expect(sut.getWorkspacePolicy('w/1')).resolves.toEqual(answer);
    await sut.setWorkspacePolicy('w1', { minimumVerdict: 'clean', allowedLicenses: ['MIT'] });
    expect(requests(fake)).toEqual([
      'GET http://api.test/api/v1/workspaces/w%2F1/policy',
      'PUT http://api.test/api/v1/workspaces/w1/policy',
    ]);
    expect(JSON.parse(String(fake.sent[1]?.body))).toEqual({ minimumVerdict: 'clean', allowedLicenses: ['MIT'] });
  });

  it('pins a version with PATCH and searches with a workspace policy', async () => {
    const fake = fakeFetch(200, { data: { collection: { id: 'c1' }, skills: [], pagination: {} } });
    const sut = client(fake);
    await sut.updateWorkspaceCollection('w1', 'c1', { skillSlug: 'pdf-tools', version: '1.2.0' });
    await sut.searchSkills({ q: 'pdf', workspace: 'w1' });
    expect(JSON.parse(String(fake.sent[0]?.body))).toEqual({ skillSlug: 'pdf-tools', version: '1.2.0' });
    expect(fake.sent[1]?.url).toBe('http://api.test/api/v1/skills?q=pdf&workspace=w1');
  });

  it('posts a dry run of pins:update, the custom method kept in its segment', async () => {
    const update = {
      dryRun: true,
      changes: [{ slug: 'a', from: { version: '1.0.0', digest: 'd0' }, to: { version: '1.1.0', digest: 'd1' } }],
      skipped: [],
      collection: { id: 'c1' },
    };
    const fake = fakeFetch(200, { data: update });
    await expect(client(fake).updateCollectionPins('w1', 'c1', { dryRun: true, slugs: ['a'] })).resolves.toEqual(
      update,
    );
    expect(requests(fake)).toEqual(['POST http://api.test/api/v1/workspaces/w1/collections/c1/pins:update']);
    expect(JSON.parse(String(fake.sent[0]?.body))).toEqual({ dryRun: true, slugs: ['a'] });
  });

  it('answers the lockfile as its exact bytes with its ETag, and nothing on 304', async () => {
    const text = '{\n  "lockfileVersion": 2,\n  "entries": []\n}\n';
    const fake = fakeFetch(200, text, { etag: '"sha256-abc"' });
    const sut = client(fake);
    await expect(sut.getCollectionLockfile('w1', 'c1')).resolves.toEqual({
      text,
      lockfile: { lockfileVersion: 2, entries: [] },
      etag: '"sha256-abc"',
    });

    const unchanged = fakeFetch(304, '');
    await expect(
      client(unchanged).getCollectionLockfile('w1', 'c1', { ifNoneMatch: '"sha256-abc"' }),
    ).resolves.toBeUndefined();
    expect(unchanged.sent[0]).toMatchObject({
      method: 'GET',
      url: 'http://api.test/api/v1/workspaces/w1/collections/c1/lockfile',
    });
    expect(unchanged.sent[0]?.headers).toMatchObject({ 'If-None-Match': '"sha256-abc"' });
  });

  it('throws the API error of a lockfile refused', async () => {
    const fake = fakeFetch(404, { error: 'Collection not found' });
    await expect(client(fake).getCollectionLockfile('w1', 'c2')).rejects.toMatchObject({
      status: 404,
      message: 'Collection not found',
    });
  });

  it('manages webhooks and reads their delivery log', async () => {
    const webhook = { id: 'h1', url: 'https://hooks.test/x', events: ['policy.changed'], enabled: true };
    const fake = fakeFetch(200, {
      data: { webhook, secret: 'whsec_1', webhooks: [webhook], deliveries: [], pagination: {}, eventId: 'e1' },
    });
    const sut = client(fake);
    await expect(sut.createWebhook('w1', { url: webhook.url, events: ['policy.changed'] })).resolves.toMatchObject({
      webhook,
      secret: 'whsec_1',
    });
    await expect(sut.listWebhooks('w1')).resolves.toEqual([webhook]);
    await expect(sut.getWebhook('w1', 'h1')).resolves.toEqual(webhook);
    await sut.updateWebhook('w1', 'h1', { enabled: false });
    await sut.listWebhookDeliveriesPage('w1', 'h1', { page: 2 });
    await expect(sut.testWebhook('w1', 'h1')).resolves.toMatchObject({ eventId: 'e1' });
    await expect(sut.deleteWebhook('w1', 'h1')).resolves.toBeUndefined();
    expect(requests(fake)).toEqual([
      'POST http://api.test/api/v1/workspaces/w1/webhooks',
      'GET http://api.test/api/v1/workspaces/w1/webhooks',
      'GET http://api.test/api/v1/workspaces/w1/webhooks/h1',
      'PATCH http://api.test/api/v1/workspaces/w1/webhooks/h1',
      'GET http://api.test/api/v1/workspaces/w1/webhooks/h1/deliveries?page=2',
      'POST http://api.test/api/v1/workspaces/w1/webhooks/h1/test',
      'DELETE http://api.test/api/v1/workspaces/w1/webhooks/h1',
    ]);
    expect(JSON.parse(String(fake.sent[3]?.body))).toEqual({ enabled: false });
  });
});
