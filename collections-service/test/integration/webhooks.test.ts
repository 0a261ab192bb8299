import { randomUUID } from 'node:crypto';
import { dnsResolver } from '../../src/webhooks/host-resolver';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { startDnsServer, type DnsServer } from '../support/faulty-peers';

/** A public address as a literal: registration checks it without a DNS answer. */
const PUBLIC_URL = 'https://93.184.215.14/hooks';
const REFUSED = 'The host of the webhook URL is or resolves to a private or reserved address';

describe('webhook endpoints /api/v1/workspaces/:id/webhooks (public targets only)', () => {
  let h: Harness;
  let ws: string;
  let otherWs: string;
  /** the operator's DNS: an internal name, a public one, and silence for any other */
  let dns: DnsServer;
  const owner = account();
  const admin = account();
  const member = account();
  const viewer = account();

  beforeAll(async () => {
    dns = await startDnsServer({ 'db.corp.test': '10.20.30.40', 'hooks.example.test': '93.184.215.14' });
    h = await startHarness({ webhookResolver: dnsResolver({ timeoutMs: 500, servers: [dns.address] }) });
    ws = (await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Team', ownerAccountId: owner.accountId }))
      .body.data.workspace.id;
    otherWs = (
      await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Other', ownerAccountId: owner.accountId })
    ).body.data.workspace.id;
    for (const [who, role] of [
      [admin, 'admin'],
      [member, 'member'],
      [viewer, 'viewer'],
    ] as const) {
      expect(
        (await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${who.accountId}`).send({ role })).status,
      ).toBe(200);
    }
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await h?.close();
    await dns?.close();
  });

  const base = () => `/api/v1/workspaces/${ws}/webhooks`;

  it('registers an endpoint and shows its secret once, never again', async () => {
    const res = await h
      .call(admin, 'post', base())
      .send({ url: PUBLIC_URL, events: ['policy.changed', 'collection.changed'], description: 'CI' });
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
    const id = (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] })).body.data
      .webhook.id;
    const patched = await h
      .call(owner, 'patch', `${base()}/${id}`)
      .send({ events: ['collection.drifted'], enabled: false });
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
    ['a loopback address', 'https://127.0.0.1/hooks', REFUSED],
    ['a private address', 'https://10.1.2.3/hooks', REFUSED],
    ['a link-local address', 'https://169.254.169.254/latest', REFUSED],
    ['an IPv4-mapped IPv6 address', 'https://[::ffff:127.0.0.1]/hooks', REFUSED],
    ['a unique-local IPv6 address', 'https://[fd00::1]/hooks', REFUSED],
    ['a 6to4 address carrying 127.0.0.1', 'https://[2002:7f00:1::1]/hooks', REFUSED],
    ['a Teredo address', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hooks', REFUSED],
    ['a local-use NAT64 address', 'https://[64:ff9b:1::a00:1]/hooks', REFUSED],
    ['a host that resolves to loopback', 'https://localhost/hooks', REFUSED],
    ['an internal name the DNS resolves to a private address', 'https://db.corp.test/hooks', REFUSED],
    [
      'a name the DNS never answers for',
      'https://nowhere.corp.test/hooks',
      'The host nowhere.corp.test of the webhook URL cannot be resolved',
    ],
    ['plain http', 'http://93.184.215.14/hooks', 'A webhook URL must use https'],
  ])('refuses %s at registration (400) and stores nothing', async (_, url, message) => {
    const res = await h
      .call(owner, 'post', base())
      .set('Accept-Language', 'en')
      .send({ url, events: ['policy.changed'] });
    expect(res.status).toBe(400);
    // one message, never the address a name resolved to
    expect(res.body).toEqual({ error: message });
    const rows = await h.rows<{ n: number }>('SELECT count(*)::int AS n FROM collections.webhooks WHERE url = $1', [
      url,
    ]);
    expect(rows[0]?.n).toBe(0);
  });

  it('says it in French too, and refuses a change of URL to a private target', async () => {
    const id = (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] })).body.data
      .webhook.id;
    const res = await h
      .call(owner, 'patch', `${base()}/${id}`)
      .set('Accept-Language', 'fr')
      .send({ url: 'https://192.168.1.1/' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "L'hôte de l'URL du webhook est ou désigne une adresse privée ou réservée" });
    expect((await h.call(owner, 'get', `${base()}/${id}`)).body.data.webhook.url).toBe(PUBLIC_URL);
  });

  it('registers a name its DNS resolves to a public address', async () => {
    const res = await h
      .call(owner, 'post', base())
      .send({ url: 'https://hooks.example.test/ci', events: ['policy.changed'] });
    expect(res.status).toBe(201);
    expect(res.body.data.webhook.url).toBe('https://hooks.example.test/ci');
    expect(dns.queries).toContain('hooks.example.test');
  });

  it('holds a workspace to 20 endpoints, registrations at the same moment included (409 naming the quota)', async () => {
    const crowded = (
      await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Crowded', ownerAccountId: owner.accountId })
    ).body.data.workspace.id;
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        h
          .call(owner, 'post', `/api/v1/workspaces/${crowded}/webhooks`)
          .send({ url: PUBLIC_URL, events: ['policy.changed'] }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = answers.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.body).toEqual({
      error: 'Quota reached: a workspace holds at most 20 webhook endpoints (webhooks per workspace)',
    });
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${crowded}/webhooks`)).body.data.webhooks).toHaveLength(20);
    // another workspace still has room
    expect(
      (
        await h
          .call(owner, 'post', `/api/v1/workspaces/${otherWs}/webhooks`)
          .send({ url: PUBLIC_URL, events: ['policy.changed'] })
      ).status,
    ).toBe(201);
  });

  it('sends one endpoint at most 5 test deliveries a minute: 429 with Retry-After beyond, other endpoints unaffected', async () => {
    const [one, two] = await Promise.all(
      [0, 1].map(
        async () =>
          (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'] })).body.data.webhook
            .id as string,
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => h.call(owner, 'post', `${base()}/${one}/test`).set('Accept-Language', 'en')),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
    const throttled = answers.find((r) => r.status === 429);
    const wait = Number(throttled?.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(throttled?.body).toEqual({
      error: `A webhook is sent at most 5 test deliveries a minute; retry in ${wait} s`,
    });
    const queued = await h.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM collections.webhook_deliveries WHERE webhook_id = $1 AND event_type = 'webhook.test'`,
      [one],
    );
    expect(queued[0]?.n).toBe(5);
    const other = await h.call(owner, 'post', `${base()}/${two}/test`);
    expect(other.status).toBe(202);
    expect(other.body.data.eventId).toEqual(expect.any(String));
    const unknown = await h.call(owner, 'post', `${base()}/${randomUUID()}/test`).set('Accept-Language', 'fr');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Webhook introuvable' });
  });

  it('refuses unknown events and unknown fields (400)', async () => {
    expect((await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['item.deleted'] })).status).toBe(400);
    expect(
      (await h.call(owner, 'post', base()).send({ url: PUBLIC_URL, events: ['policy.changed'], secret: 'whsec_mine' }))
        .status,
    ).toBe(400);
  });
});
