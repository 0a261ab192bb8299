import { WebhookDispatcher } from '@skills/collections-service';
import { ADMIN, account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { published, scan } from '../support/releases';
import { startReceiver, type Receiver, silentLogger } from '@skills/common/testing';

const silent = silentLogger('webhooks-test');

describe('webhook deliveries (receivers on 127.0.0.1, private targets allowed)', () => {
  let h: Harness;
  let ws: string;
  const owner = account();
  let receiver: Receiver;
  /** retries at once and never gives up unless a test says so: passes are driven by hand, not by time */
  let sut: WebhookDispatcher;

  beforeAll(async () => {
    h = await startHarness({ webhookTargets: { allowPrivate: true } });
    ws = (await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Team', ownerAccountId: owner.accountId }))
      .body.data.workspace.id;
    sut = new WebhookDispatcher({
      sequelize: h.sequelize,
      logger: silent,
      targets: { allowPrivate: true },
      retryScheduleMs: [0],
    });
  }, START_TIMEOUT_MS);
  beforeEach(async () => {
    receiver = await startReceiver();
    // every test starts from a quiet log: what earlier tests queued is sent or dropped now
    await h.rows('DELETE FROM collections.webhooks');
    await settle();
  });
  afterEach(() => receiver.close());
  afterAll(() => h?.close());

  async function register(url: string, events: string[]): Promise<string> {
    const res = await h.call(owner, 'post', `/api/v1/workspaces/${ws}/webhooks`).send({ url, events });
    expect(res.status).toBe(201);
    receiver.secret = res.body.data.secret;
    return res.body.data.webhook.id as string;
  }
  const deliveries = async (id: string) =>
    (await h.call(owner, 'get', `/api/v1/workspaces/${ws}/webhooks/${id}/deliveries`)).body.data.deliveries as Array<
      Record<string, unknown>
    >;
  const changePolicy = (minimumVerdict: string) =>
    h.call(owner, 'put', `/api/v1/workspaces/${ws}/policy`).send({ minimumVerdict });

  /** Have both readers read every row committed so far? (On a shared server another transaction in flight holds them back.) */
  async function caughtUp(): Promise<boolean> {
    const [row] = await h.rows<{ done: boolean }>(`
      SELECT NOT EXISTS (SELECT 1 FROM collections.workspace_events e JOIN collections.webhook_positions p
                         ON p.reader = 'webhook-fanout' AND (e.txid, e.seq) > (p.last_txid, p.last_id))
         AND NOT EXISTS (SELECT 1 FROM collections.outbox o JOIN collections.webhook_positions p
                         ON p.reader = 'webhook-verdict-watch' AND (o.txid, o.id) > (p.last_txid, p.last_id)) AS done`);
    return row?.done === true;
  }
  /** Passes until everything written so far was read; the pass that reads an event also sends its deliveries once. */
  async function settle(dispatcher = sut): Promise<void> {
    do await dispatcher.pass();
    while (!(await caughtUp()));
  }

  it('signs a delivery, retries it with the same event id and body after a 500, and the receiver acts on it once', async () => {
    const id = await register(receiver.url, ['policy.changed']);
    receiver.answers = [500];
    expect((await changePolicy('clean')).status).toBe(200);
    await settle();
    const [failed] = await deliveries(id);
    expect(failed).toMatchObject({
      eventType: 'policy.changed',
      status: 'failed',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
    });
    await sut.pass();
    expect(receiver.received).toHaveLength(2);
    const [first, retry] = receiver.received;
    expect(first?.verified && retry?.verified).toBe(true);
    expect(retry?.headers['skills-webhook-id']).toBe(first?.headers['skills-webhook-id']);
    expect(retry?.body).toBe(first?.body);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({
      id: failed?.eventId,
      type: 'policy.changed',
      workspaceId: ws,
      data: { policy: { minimumVerdict: 'clean' } },
    });
    expect([...receiver.handled.keys()]).toEqual([failed?.eventId]);
    expect((await deliveries(id))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastStatusCode: 200,
      deliveredAt: expect.any(String),
      nextAttemptAt: null,
    });
  });

  it('delivers each (endpoint, event) once, even when the workspace log is read again', async () => {
    const id = await register(receiver.url, ['policy.changed']);
    const [before] = await h.rows<{ txid: string; id: string }>(
      `SELECT last_txid::text AS txid, last_id::text AS id FROM collections.webhook_positions WHERE reader = 'webhook-fanout'`,
    );
    await changePolicy('unscanned');
    await settle();
    // back to where the reader stood before the event: it reads that event again
    await h.rows(
      `UPDATE collections.webhook_positions SET last_txid = $1::xid8, last_id = $2::bigint WHERE reader = 'webhook-fanout'`,
      [before?.txid, before?.id],
    );
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(id)).toHaveLength(1);
  });

  it('sends an endpoint nothing that happened before it was registered, even when the log is read after', async () => {
    expect((await changePolicy('suspicious')).status).toBe(200);
    // the event is committed but not yet read: the endpoint arrives in between
    const id = await register(receiver.url, ['policy.changed']);
    await settle();
    expect(await deliveries(id)).toEqual([]);
    expect((await changePolicy('clean')).status).toBe(200);
    await settle();
    expect((await deliveries(id)).map((d) => d.eventType)).toEqual(['policy.changed']);
  });

  it('refuses at delivery a host that resolves to loopback when private targets are not allowed', async () => {
    const id = await register(receiver.url.replace('127.0.0.1', 'localhost'), ['policy.changed']);
    const strict = new WebhookDispatcher({
      sequelize: h.sequelize,
      logger: silent,
      targets: { allowPrivate: false },
      retryScheduleMs: [60_000],
    });
    await changePolicy('clean');
    await settle(strict);
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries(id))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: null,
      // the same words whatever the address: the log must not tell what a name resolves to
      lastError: 'refused: the host is or resolves to a private or reserved address',
    });
    // the same host, once the operator allows private targets, is reached through the checked lookup
    await h.rows(`UPDATE collections.webhook_deliveries SET next_attempt_at = now() WHERE webhook_id = $1`, [id]);
    await sut.pass();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('does not follow a redirect to 127.0.0.1: a 3xx is a failed attempt', async () => {
    const inside = await startReceiver();
    try {
      const id = await register(receiver.url, ['policy.changed']);
      receiver.answers = [{ status: 302, location: inside.url }];
      await changePolicy('suspicious');
      await settle(
        new WebhookDispatcher({
          sequelize: h.sequelize,
          logger: silent,
          targets: { allowPrivate: true },
          retryScheduleMs: [60_000],
        }),
      );
      expect(receiver.received).toHaveLength(1);
      expect(inside.received).toHaveLength(0);
      expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', lastStatusCode: 302, lastError: 'HTTP 302' });
    } finally {
      await inside.close();
    }
  });

  it('abandons a delivery still failing when the give-up time has passed since its first attempt, and disables the endpoint saying why', async () => {
    const id = await register(receiver.url, ['policy.changed', 'collection.changed']);
    await receiver.close();
    const daily = new WebhookDispatcher({
      sequelize: h.sequelize,
      logger: silent,
      targets: { allowPrivate: true },
      retryScheduleMs: [0],
    });
    await changePolicy('clean');
    await settle(daily);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    // a day later, as far as the give-up rule can tell
    await h.rows(
      `UPDATE collections.webhook_deliveries SET first_attempt_at = now() - interval '24 hours 1 second' WHERE webhook_id = $1`,
      [id],
    );
    await daily.pass();
    expect((await deliveries(id))[0]).toMatchObject({ status: 'abandoned', attempts: 2, nextAttemptAt: null });
    const webhook = (await h.call(owner, 'get', `/api/v1/workspaces/${ws}/webhooks/${id}`)).body.data.webhook;
    expect(webhook.enabled).toBe(false);
    expect(webhook.disabledReason).toMatch(
      /^Deliveries failed from .* until they were abandoned .*re-enable the endpoint to resume$/,
    );
    // a disabled endpoint is sent nothing more
    receiver = await startReceiver();
    await changePolicy('unscanned');
    await settle(daily);
    expect(receiver.received).toHaveLength(0);
  });

  it('does not let a second instance send a delivery another one is still sending', async () => {
    const id = await register(receiver.url, ['policy.changed']);
    const other = new WebhookDispatcher({
      sequelize: h.sequelize,
      logger: silent,
      targets: { allowPrivate: true },
      retryScheduleMs: [0],
    });
    await changePolicy('clean');
    receiver.holding = true;
    const arrived = receiver.arrival();
    const sending = (async () => {
      while (receiver.received.length === 0) await sut.pass();
    })();
    await arrived;
    await other.pass();
    receiver.release();
    await sending;
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('queues a signed webhook.test delivery (202)', async () => {
    const id = await register(receiver.url, ['policy.changed']);
    const res = await h.call(owner, 'post', `/api/v1/workspaces/${ws}/webhooks/${id}/test`);
    expect(res.status).toBe(202);
    await sut.pass();
    expect(receiver.handled.get(res.body.data.eventId)).toEqual({ type: 'webhook.test', data: { webhookId: id } });
  });

  it('announces a verdict change of a pinned release as release.verdict_changed and collection.drifted, once', async () => {
    await putSkill(h, 'pdf-tools');
    await published(h, 'pdf-tools', '1.0.0');
    expect((await scan(h, 'pdf-tools', '1.0.0', 'acme-scan', 'clean')).status).toBe(201);
    const collection = (await h.call(owner, 'post', `/api/v1/workspaces/${ws}/collections`).send({ name: 'Agents' }))
      .body.data.collection;
    expect(
      (
        await h
          .call(owner, 'patch', `/api/v1/workspaces/${ws}/collections/${collection.id}`)
          .send({ skillSlug: 'pdf-tools' })
      ).status,
    ).toBe(200);
    await register(receiver.url, ['release.verdict_changed', 'collection.drifted']);
    await settle();
    expect(receiver.received).toHaveLength(0);

    expect((await scan(h, 'pdf-tools', '1.0.0', 'acme-scan', 'malicious')).status).toBe(201);
    await settle();
    // sent side by side: their order of arrival is not part of the contract
    const events = [...receiver.handled.values()].sort((a, b) => b.type.localeCompare(a.type));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(events).toEqual([
      {
        type: 'release.verdict_changed',
        data: {
          slug: 'pdf-tools',
          version: '1.0.0',
          from: 'clean',
          to: 'malicious',
          collections: [{ id: collection.id, name: 'Agents' }],
        },
      },
      {
        type: 'collection.drifted',
        data: {
          collection: { id: collection.id, name: 'Agents' },
          slug: 'pdf-tools',
          version: '1.0.0',
          drift: [{ kind: 'verdict-changed', from: 'clean', to: 'malicious' }, { kind: 'blocked' }],
        },
      },
    ]);

    // the item log read again from its start writes nothing new
    await h.rows(
      `UPDATE collections.webhook_positions SET last_txid = '0', last_id = 0 WHERE reader = 'webhook-verdict-watch'`,
    );
    await settle();
    expect(receiver.received).toHaveLength(2);
  });

  it('announces each drift cause an entry gains once: a newer release, then a yank of the pinned one', async () => {
    await putSkill(h, 'csv-tools');
    await published(h, 'csv-tools', '1.0.0');
    // unscanned releases allowed (earlier tests left the policy at clean)
    await changePolicy('suspicious');
    const collection = (await h.call(owner, 'post', `/api/v1/workspaces/${ws}/collections`).send({ name: 'Data' })).body
      .data.collection;
    expect(
      (
        await h
          .call(owner, 'patch', `/api/v1/workspaces/${ws}/collections/${collection.id}`)
          .send({ skillSlug: 'csv-tools' })
      ).status,
    ).toBe(200);
    await register(receiver.url, ['collection.drifted']);
    await settle();

    await published(h, 'csv-tools', '1.1.0');
    await settle();
    const yank = await h
      .call(ADMIN, 'post', '/admin/v1/skills/csv-tools/versions/1.0.0:yank')
      .send({ reason: 'leaks tokens' });
    expect(yank.status).toBe(200);
    await settle();
    const drifts = [...receiver.handled.values()].map((e) => e.data);
    expect(drifts).toEqual([
      {
        collection: { id: collection.id, name: 'Data' },
        slug: 'csv-tools',
        version: '1.0.0',
        drift: [{ kind: 'newer-release', version: '1.1.0' }],
      },
      {
        collection: { id: collection.id, name: 'Data' },
        slug: 'csv-tools',
        version: '1.0.0',
        drift: [{ kind: 'yanked' }],
      },
    ]);
  });
});
