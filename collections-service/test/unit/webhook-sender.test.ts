/**
 * The bounds of one webhook attempt against real misbehaving peers: a
 * connection that never completes ends at the connect bound, a lookup whose
 * DNS server never answers at the DNS bound (both long before the attempt's
 * own), a name resolving to a private address is refused without saying
 * which, and a name the DNS answers is reached through the checked address.
 */
import { dnsResolver } from '../../src/webhooks/host-resolver';
import { sendOnce, type SendOptions } from '../../src/webhooks/http-sender';
import { startReceiver } from '@skills/common/testing';
import { startDnsServer, startFullListener, type DnsServer } from '../support/faulty-peers';

const ATTEMPT_MS = 20_000;

describe('sendOnce', () => {
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({ 'db.corp.test': '10.20.30.40', 'hooks.test': '127.0.0.1' });
  });
  afterAll(() => dns.close());

  const send = (url: string, options: Partial<SendOptions> = {}) =>
    sendOnce({
      url,
      headers: {},
      body: '{}',
      timeoutMs: ATTEMPT_MS,
      connectTimeoutMs: ATTEMPT_MS,
      targets: { allowPrivate: true },
      resolver: dnsResolver({ timeoutMs: ATTEMPT_MS, servers: [dns.address] }),
      ...options,
    });

  it('gives up a connection that never completes at the connect bound, not the attempt bound', async () => {
    const listener = await startFullListener();
    try {
      const outcome = await send(`http://127.0.0.1:${listener.port}/hooks`, { connectTimeoutMs: 300 });
      expect(outcome).toEqual({ ok: false, statusCode: null, error: 'no connection within 300 ms' });
    } finally {
      listener.close();
    }
  });

  it('gives up a lookup whose DNS server never answers at the DNS bound, after asking it', async () => {
    const outcome = await send('http://never.answers.test:8080/hooks', {
      resolver: dnsResolver({ timeoutMs: 300, servers: [dns.address] }),
    });
    expect(outcome).toEqual({
      ok: false,
      statusCode: null,
      error: 'DNS lookup of never.answers.test timed out after 300 ms',
    });
    expect(dns.queries).toContain('never.answers.test');
  });

  it('refuses a name that resolves to a private address, without saying which address', async () => {
    const outcome = await send('https://db.corp.test/hooks', { targets: { allowPrivate: false } });
    expect(outcome).toEqual({
      ok: false,
      statusCode: null,
      error: 'refused: the host is or resolves to a private or reserved address',
    });
    expect(outcome.error).not.toContain('10.20.30.40');
  });

  it('reaches a name through the address its DNS server gave', async () => {
    const receiver = await startReceiver();
    try {
      const outcome = await send(receiver.url.replace('127.0.0.1', 'hooks.test'));
      expect(outcome).toEqual({ ok: true, statusCode: 200, error: null });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
