import { randomUUID } from 'node:crypto';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

/** A public address as a literal: registration checks it without a DNS answer. */
const PUBLIC_URL = 'https://93.184.215.14/hooks';

describe('webhook endpoints /api/v1/workspaces/:id/webhooks (public targets only)', () => {
  let h: Harness;
  let ws: string;
  let otherWs: string;
  const owner = account();
  const admin = account();
  const member = account();
  const viewer = account();

  beforeAll(async () => {
    h = await startHarness();
    ws = (await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Team', ownerAccountId: owner.accountId })).body.data.workspace.id;
    otherWs = (await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Other', ownerAccountId: owner.accountId })).body.data.workspace.id;
    for (const [who, role] of [
      [admin, 'admin'],
      [member, 'member'],
      [viewer, 'viewer'],
    ] as const) {
      expect((await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${who.accountId}`).send({ role })).status).toBe(200);
    }
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const base = () => `/api/v1/workspaces/${ws}/webhooks`;

  it('registers an endpoint and shows its secret once, never again', async () => {
    const res = await h.call(admin, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed', 'collection.changed'], description: 'CI' });
    expect(res.status).toBe(201);
    const { webhook, secret } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    expect(webhook).toEqual({
      id: expect.any(String),
      url: PUBLIC_URL,
      events: ['policy.changed', 'collection.changed'],
      description: 'CI',
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await h.call(owner, 'get', `${base()}/${webhook.id}`);
    const list = await h.call(owner, 'get', base());
    expect(read.body.data.webhook).toEqual(webhook);
    expect(list.body.data.webhooks).toEqual([webhook]);
    expect(JSON.stringify([read.body, list.body])).not.toContain(secret);
  });

  it('lets owners and admins manage endpoints, and members and viewers nothing (403)', async () => {
    for (const who of [member, viewer]) {
      expect((await h.call(who, 'get', base())).status).toBe(403);
      const post = await h.call(who, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] });
      expect(post.status).toBe(403);
    }
    expect((await h.call(account(), 'get', base())).status).toBe(403);
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${randomUUID()}/webhooks`)).status).toBe(404);
  });

  it('changes, disables, re-enables and deletes an endpoint; another workspace sees it as missing', async () => {
    const id = (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] })).body.data.webhook.id;
    const patched = await h.call(owner, 'patch', `${base()}/${id}`).send({ events: ['collection.drifted'], enabled: false });
    expect(patched.body.data.webhook).toMatchObject({ events: ['collection.drifted'], enabled: false });
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${otherWs}/webhooks/${id}`)).status).toBe(404);
    expect((await h.call(owner, 'delete', `/api/v1/workspaces/${otherWs}/webhooks/${id}`)).status).toBe(404);
    expect((await h.call(owner, 'get', `${base()}/not-a-uuid`)).status).toBe(404);
    await h.rows(`UPDATE collections.webhooks SET disabled_reason = 'kept failing' WHERE id = $1`, [id]);
    const enabled = await h.call(owner, 'patch', `${base()}/${id}`).send({ enabled: true });
    expect(enabled.body.data.webhook).toMatchObject({ enabled: true, disabledReason: null });
    expect((await h.call(owner, 'delete', `${base()}/${id}`)).status).toBe(200);
    expect((await h.call(owner, 'get', `${base()}/${id}`)).status).toBe(404);
  });

  it.each([
    ['a loopback address', 'https://127.0.0.1/hooks', 'The webhook URL leads to 127.0.0.1, which is not a public address'],
    ['a private address', 'https://10.1.2.3/hooks', 'The webhook URL leads to 10.1.2.3, which is not a public address'],
    ['a link-local address', 'https://169.254.169.254/latest', 'The webhook URL leads to 169.254.169.254, which is not a public address'],
    ['an IPv4-mapped IPv6 address', 'https://[::ffff:127.0.0.1]/hooks', 'The webhook URL leads to ::ffff:7f00:1, which is not a public address'],
    ['a unique-local IPv6 address', 'https://[fd00::1]/hooks', 'The webhook URL leads to fd00::1, which is not a public address'],
    ['a host that resolves to loopback', 'https://localhost/hooks', 'which is not a public address'],
    ['plain http', 'http://93.184.215.14/hooks', 'A webhook URL must use https'],
  ])('refuses %s at registration (400) and stores nothing', async (_, url, message) => {
    const res = await h
      .call(owner, 'post', base())
      .set('Accept-Language', 'en')
      .send({ url, events: ['policy.changed'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    const rows = await h.rows<{ n: number }>('SELECT count(*)::int AS n FROM collections.webhooks WHERE url = $1', [url]);
    expect(rows[0]?.n).toBe(0);
  });

  it('says it in French too, and refuses a change of URL to a private target', async () => {
    const id = (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] })).body.data.webhook.id;
    const res = await h.call(owner, 'patch', `${base()}/${id}`).set('Accept-Language', 'fr').send({ url: 'https://192.168.1.1/' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "L'URL du webhook mène à 192.168.1.1, qui n'est pas une adresse publique" });
    expect((await h.call(owner, 'get', `${base()}/${id}`)).body.data.webhook.url).toBe(PUBLIC_URL);
  });

  it('refuses unknown events and unknown fields (400)', async () => {
    expect((await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['item.deleted'] })).status).toBe(400);
    expect((await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'], secret: 'whsec_mine' })).status).toBe(400);
  });
});
