/**
 * Two gateways, two catalog-services and two collections-services as real
 * processes over one database (the server in DATABASE_URL, else an embedded
 * Postgres process) and the local Redis: the promises that only mean
 * something with several replicas. Reported skipped when no Redis answers.
 */
import { randomUUID } from 'node:crypto';
import { PRINCIPAL_HEADER, bodyDigest, type Principal } from '@skills/common';
import { eventually, TEST_REDIS_URL, redisAnswers } from '@skills/common/testing';
import { type Client } from '../e2e/helpers';
import { ADMIN_TOKEN, PRINCIPAL_KEYS, newKey } from './processes';
import { startReplicatedTopology, type ReplicatedTopology } from './replicas';

const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;
const PRO_LIMIT = 6;

describeRedis('two replicas of every service, on a live Redis', () => {
  let topology: ReplicatedTopology;
  let one: Client;
  let two: Client;

  beforeAll(async () => {
    topology = await startReplicatedTopology({
      redisUrl: TEST_REDIS_URL,
      // pro keys get a small budget to show it is shared; team keys a large one, so the other tests are not limited
      gatewayEnv: { RATE_LIMIT_PRO_PER_MINUTE: String(PRO_LIMIT), RATE_LIMIT_TEAM_PER_MINUTE: '100000' },
    });
    [one, two] = topology.replicas.map((r) => r.client) as [Client, Client];
  }, 180_000);
  afterAll(async () => {
    await topology?.dispose();
  }, 60_000);

  // The bound (KEY_CACHE_TTL_MS, 1 s) is the key cache's, shown on a fake clock in gateway/test/unit/key-authenticator.test.ts.
  it('refuses a revoked key on every gateway: at once on the one that revoked it, on the other once its key cache expires', async () => {
    const { accountId } = await newKey(one, 'team');
    const created = await one.call('POST', `/admin/v1/accounts/${accountId}/api-keys`, {
      token: ADMIN_TOKEN,
      json: {},
    });
    const { id, key } = created.body.data.apiKey as { id: string; key: string };
    // both gateways have the key in their caches
    for (const gateway of [one, two])
      expect((await gateway.call('GET', '/api/v1/me/collections', { token: key })).status).toBe(200);
    expect((await one.call('DELETE', `/admin/v1/api-keys/${id}`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await one.call('GET', '/api/v1/me/collections', { token: key })).status).toBe(401);
    const other = await eventually(
      async () => {
        const res = await two.call('GET', '/api/v1/me/collections', { token: key });
        return res.status === 401 ? res : undefined;
      },
      'the revoked key refused by the other gateway',
      10_000,
    );
    expect(other.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  // How soon (poll interval, one read, the answer cache: docs/search.md "Visibility") is the engines' and caches' own tests' business.
  it('shows a write made through one gateway in search on both catalog replicas', async () => {
    const { key } = await newKey(one, 'team');
    const slug = `replica-${randomUUID().slice(0, 8)}`;
    const put = await one.call('PUT', `/admin/v1/skills/${slug}`, {
      token: ADMIN_TOKEN,
      json: { name: `Zyxwv ${slug}`, description: 'Written through gateway one.', type: 'skill', category: 'testing' },
    });
    expect(put.status).toBe(201);
    const found = await Promise.all(
      [one, two].map((gateway, n) =>
        eventually(
          async () => {
            const res = await gateway.call('GET', `/api/v1/skills?q=${slug}`, { token: key });
            return (res.body.data.skills as Array<{ slug: string; name: string }>).find((s) => s.slug === slug);
          },
          `${slug} in search through gateway ${n + 1}`,
          10_000,
        ),
      ),
    );
    expect(found.map((s) => s.name)).toEqual([`Zyxwv ${slug}`, `Zyxwv ${slug}`]);
  });

  it('replays an idempotent create sent to the other gateway instead of creating twice', async () => {
    const { key } = await newKey(one, 'team');
    const headers = { 'idempotency-key': randomUUID() };
    const json = { name: 'Once only' };
    const first = await one.call('POST', '/api/v1/me/collections', { token: key, json, headers });
    const again = await two.call('POST', '/api/v1/me/collections', { token: key, json, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.collection.id).toBe(first.body.data.collection.id);
    const list = await two.call('GET', '/api/v1/me/collections', { token: key });
    expect(list.body.data.pagination.total).toBe(1);
  });

  it('counts one rate-limit budget for an account across both gateways', async () => {
    const { key } = await newKey(one, 'pro');
    const statuses: number[] = [];
    for (let n = 0; n < PRO_LIMIT; n++)
      statuses.push((await (n % 2 ? two : one).call('GET', '/api/v1/me/collections', { token: key })).status);
    expect(statuses).toEqual(Array(PRO_LIMIT).fill(200));
    for (const gateway of [one, two]) {
      const over = await gateway.call('GET', '/api/v1/me/collections', { token: key });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('reports a reindex job started on one replica from the other', async () => {
    const started = await one.call('POST', '/admin/v1/reindex', { token: ADMIN_TOKEN });
    expect(started.status).toBe(202);
    const location = started.headers.get('location') as string;
    const job = await eventually(
      async () => {
        const res = await two.call('GET', location, { token: ADMIN_TOKEN });
        expect(res.status).toBe(200);
        return res.body.data.job.status === 'running' ? undefined : res.body.data.job;
      },
      'the reindex to end',
      30_000,
    );
    expect(job).toMatchObject({ id: started.body.data.job.id, status: 'succeeded' });
  });

  it('refuses a captured write principal replayed to the other collections-service', async () => {
    const { accountId, key } = await newKey(one, 'team');
    const principal: Principal = { kind: 'account', accountId, plan: 'team', keyId: randomUUID() };
    const url = '/api/v1/me/collections';
    const body = JSON.stringify({ name: 'Captured' });
    // what the gateway would have sent, as someone inside the deployment could capture it
    const header = PRINCIPAL_KEYS.signer().sign(principal, 'collections-service', 'POST', url, bodyDigest(body));
    const send = (port: number) =>
      fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: header },
        body,
      });
    const [first, second] = topology.replicas.map((r) => r.collections.port) as [number, number];
    expect((await send(first)).status).toBe(201);
    const replayed = await send(second);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ error: 'Missing or invalid principal signature' });
    const list = await two.call('GET', url, { token: key });
    expect(list.body.data.collections.map((c: { name: string }) => c.name)).toEqual(['Captured']);
  });
});
