/**
 * One workspace's bad endpoints cannot hold up another's deliveries: an
 * endpoint on a real tarpit (accepts, never answers) and one whose name's
 * DNS server never answers (a UDP socket that reads and stays silent) each
 * hold at most their few attempts in flight, while another workspace's
 * delivery is claimed and arrives meanwhile. The proof is an order, not a
 * time: the other delivery arrives while the tarpit still holds both of its
 * connections and none of the stalled attempts has ended.
 */
import { eventually, startReceiver, type Receiver, silentLogger } from '@skills/common/testing';
import { WebhookDispatcher } from '@skills/collections-service';
import { dnsResolver } from '../../src/webhooks/host-resolver';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { startDnsServer, startTarpit, type DnsServer, type Tarpit } from '../support/faulty-peers';

const silent = silentLogger('webhooks-test');
const DNS_BOUND_MS = 4_000;
const ATTEMPT_MS = 6_000;

describe('webhook deliveries of one workspace beside another’s tarpit and silent DNS', () => {
  let h: Harness;
  let tarpit: Tarpit;
  let dns: DnsServer;
  let receiver: Receiver;
  let sut: WebhookDispatcher;
  const stalled = { owner: account(), ws: '' };
  const healthy = { owner: account(), ws: '' };

  beforeAll(async () => {
    [h, tarpit, dns, receiver] = await Promise.all([
      startHarness({ webhookTargets: { allowPrivate: true } }),
      startTarpit(),
      startDnsServer(),
      startReceiver(),
    ]);
    for (const team of [stalled, healthy]) {
      const res = await h
        .call(ADMIN, 'post', '/admin/v1/workspaces')
        .send({ name: 'Team', ownerAccountId: team.owner.accountId });
      team.ws = res.body.data.workspace.id as string;
    }
    sut = new WebhookDispatcher({
      sequelize: h.sequelize,
      logger: silent,
      targets: { allowPrivate: true },
      resolver: dnsResolver({ timeoutMs: DNS_BOUND_MS, servers: [dns.address] }),
      timeoutMs: ATTEMPT_MS,
      retryScheduleMs: [600_000],
      pollIntervalMs: 50,
    });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    // the tarpit's attempts end as its sockets close; stop() then waits out the silent lookups' bound at most
    await tarpit?.close();
    await sut?.stop();
    await Promise.all([dns?.close(), receiver?.close(), h?.close()]);
  }, 30_000);

  const register = async (team: typeof stalled, url: string) => {
    const res = await h
      .call(team.owner, 'post', `/api/v1/workspaces/${team.ws}/webhooks`)
      .send({ url, events: ['policy.changed'] });
    expect(res.status).toBe(201);
    return res.body.data as { webhook: { id: string }; secret: string };
  };
  const changePolicy = async (team: typeof stalled, minimumVerdict: string) =>
    expect(
      (await h.call(team.owner, 'put', `/api/v1/workspaces/${team.ws}/policy`).send({ minimumVerdict })).status,
    ).toBe(200);
  const deliveriesOf = async (team: typeof stalled, id: string) =>
    (await h.call(team.owner, 'get', `/api/v1/workspaces/${team.ws}/webhooks/${id}/deliveries?limit=50`)).body.data
      .deliveries as Array<Record<string, unknown>>;

  it('delivers another workspace’s event while the tarpit and the silent DNS hold their own attempts, two per endpoint', async () => {
    const pit = (await register(stalled, `http://127.0.0.1:${tarpit.port}/hooks`)).webhook.id;
    const unanswered = (await register(stalled, 'http://never.answers.test:8080/hooks')).webhook.id;
    receiver.secret = (await register(healthy, receiver.url)).secret;
    // six events for each stalled endpoint, all due at once
    for (const verdict of ['clean', 'unscanned', 'suspicious', 'clean', 'unscanned', 'suspicious'])
      await changePolicy(stalled, verdict);

    sut.start();
    await eventually(() => tarpit.accepted >= 2, 'the tarpit attempts under way');
    await changePolicy(healthy, 'clean');
    await eventually(() => receiver.received.length === 1, 'the other workspace’s delivery');

    // when it arrived, every stalled attempt was still stalled: both tarpit connections open, the silent server asked, nothing recorded
    expect(tarpit.open).toBe(2);
    expect(dns.queries).toContain('never.answers.test');
    for (const id of [pit, unanswered]) {
      const log = await deliveriesOf(stalled, id);
      expect(log).toHaveLength(6);
      expect(log.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
    }
    expect(receiver.received[0]?.verified).toBe(true);
    // one endpoint's backlog takes two slots, not all of them
    expect(tarpit.accepted).toBe(2);
  });

  it('ends the stalled attempts at their bounds and records why', async () => {
    const [pit, unanswered] = (
      await h.call(stalled.owner, 'get', `/api/v1/workspaces/${stalled.ws}/webhooks`)
    ).body.data.webhooks.map((w: { id: string }) => w.id);
    const failedWith = async (id: string) =>
      (await deliveriesOf(stalled, id)).filter((d) => d.status === 'failed').map((d) => d.lastError);
    expect(
      await eventually(
        async () => ((await failedWith(unanswered)).length >= 2 ? failedWith(unanswered) : undefined),
        'the lookups’ end',
        20_000,
      ),
    ).toContain(`DNS lookup of never.answers.test timed out after ${DNS_BOUND_MS} ms`);
    expect(
      await eventually(
        async () => ((await failedWith(pit)).length >= 2 ? failedWith(pit) : undefined),
        'the tarpit attempts’ end',
        20_000,
      ),
    ).toContain(`no answer within ${ATTEMPT_MS} ms`);
  });
});
