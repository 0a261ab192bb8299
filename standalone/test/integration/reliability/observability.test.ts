/**
 * Logs, request ids, metrics and probes of the three services run as separate
 * processes at LOG_LEVEL=debug (the most talkative level a deployment uses).
 */
import { randomUUID } from 'node:crypto';

import {
  ADMIN_TOKEN,
  ITEMS_READER_TOKEN,
  PRINCIPAL_KEYS,
  newKey,
  startTopology,
  type Proc,
  type Topology,
} from './processes';
import { eventually } from '@skills/common/testing';

let topology: Topology;
let key: string;

beforeAll(async () => {
  topology = await startTopology({ logLevel: 'debug' });
  ({ key } = await newKey(topology.client));
}, 120_000);

afterAll(async () => {
  await topology?.dispose();
});

const linesWith = (proc: Proc, requestId: string) =>
  proc.lines.filter((line) => {
    try {
      return (JSON.parse(line) as { requestId?: string }).requestId === requestId;
    } catch {
      return false;
    }
  });

describe('request ids', () => {
  it('follow a request from the gateway into the service that answered it, given or generated', async () => {
    const given = `trace-${randomUUID()}`;
    const search = await topology.client.call('GET', '/api/v1/skills?q=lint', {
      token: key,
      headers: { 'x-request-id': given },
    });
    expect(search.status).toBe(200);
    expect(search.headers.get('x-request-id')).toBe(given);
    await eventually(
      async () => (linesWith(topology.catalog, given).length > 0 ? true : undefined),
      'catalog log line',
      5_000,
    );
    await eventually(
      async () => (linesWith(topology.gateway, given).length > 0 ? true : undefined),
      'gateway log line',
      5_000,
    );

    const mine = await topology.client.call('GET', '/api/v1/me/collections', { token: key });
    expect(mine.status).toBe(200);
    const generated = mine.headers.get('x-request-id') ?? '';
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(
      async () => (linesWith(topology.collections, generated).length > 0 ? true : undefined),
      'collections log line',
      5_000,
    );
    // Each service logs only the requests it served.
    expect(linesWith(topology.catalog, generated)).toEqual([]);
  });
});

describe('secrets in logs', () => {
  it('never writes an API key, the admin token or the principal secret, whatever the calls', async () => {
    const other = await newKey(topology.client, 'team');
    const created = await topology.client.call('POST', '/api/v1/me/collections', {
      token: other.key,
      json: { name: 'Logged?' },
    });
    expect(created.status).toBe(201);
    await topology.client.call('GET', '/api/v1/skills?q=docker', {
      token: other.key,
      headers: { 'accept-language': 'fr' },
    });
    await topology.client.call('GET', '/api/v1/skills', { token: `${other.key}x` });
    await topology.client.call('GET', '/admin/v1/accounts/not-an-id', { token: ADMIN_TOKEN });
    await topology.client.call('GET', `/admin/v1/accounts/${other.accountId}`, { token: `${ADMIN_TOKEN}x` });
    const revoke = await topology.client.call('GET', `/admin/v1/accounts/${other.accountId}`, { token: ADMIN_TOKEN });
    expect(revoke.status).toBe(200);
    // A marker request, to know every line of the calls above was written.
    const marker = `marker-${randomUUID()}`;
    await topology.client.call('GET', '/api/v1/skills', { token: key, headers: { 'x-request-id': marker } });
    await eventually(
      async () => (linesWith(topology.catalog, marker).length > 0 ? true : undefined),
      'marker line',
      5_000,
    );

    const lines = topology.allLines();
    expect(lines.length).toBeGreaterThan(20);
    // a line of the base64 body of the private key PEM stands for the key
    const signingKeyLine = PRINCIPAL_KEYS.signingKeyPem.split('\n')[1] as string;
    const secrets = [key, other.key, ADMIN_TOKEN, ITEMS_READER_TOKEN, signingKeyLine, other.key.slice(8)];
    const leaks = lines.filter((line) => secrets.some((s) => line.includes(s)));
    expect(leaks).toEqual([]);
    // The signed principal header is a credential too (valid 5 s): its value never appears.
    const headerStart = Buffer.from('{"alg":"EdDSA"').toString('base64url').slice(0, 16);
    expect(lines.filter((line) => line.includes(headerStart))).toEqual([]);
  });
});

describe('metrics and probes', () => {
  const scrape = async (proc: Proc) => {
    const res = await fetch(`http://127.0.0.1:${proc.metricsPort}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };
  /** The value of the first sample of `name` carrying every label in `labels` (label order is prom-client's business). */
  const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  it('each service serves request counts and latencies by route template and status, plus its own gauges', async () => {
    const [gateway, catalog, collections] = await Promise.all([
      scrape(topology.gateway),
      scrape(topology.catalog),
      scrape(topology.collections),
    ]);
    const get = { method: 'GET', status: '200' };
    expect(
      sample(gateway, 'http_requests_total', { ...get, route: '/api/v1/skills', service: 'gateway' }),
    ).toBeGreaterThan(0);
    expect(sample(gateway, 'http_request_duration_seconds_count', { ...get, route: '/api/v1/skills' })).toBeGreaterThan(
      0,
    );
    expect(
      sample(gateway, 'http_request_duration_seconds_bucket', { ...get, route: '/api/v1/skills', le: '+Inf' }),
    ).toBeGreaterThan(0);
    expect(sample(gateway, 'skills_key_cache_lookups_total', { result: 'miss' })).toBeGreaterThan(0);
    expect(sample(gateway, 'skills_key_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(0);
    expect(
      sample(catalog, 'http_requests_total', { ...get, route: '/api/v1/skills', service: 'catalog-service' }),
    ).toBeGreaterThan(0);
    expect(sample(catalog, 'skills_event_log_lag', { group: 'catalog-indexer' })).toBeGreaterThanOrEqual(0);
    expect(sample(catalog, 'skills_dead_letters', { group: 'catalog-indexer' })).toBe(0);
    const created = { method: 'POST', route: '/api/v1/me/collections', status: '201', service: 'collections-service' };
    expect(sample(collections, 'http_requests_total', created)).toBeGreaterThan(0);
    // Ids never become labels: the label space stays bounded.
    expect(`${gateway}${catalog}${collections}`).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('answers /healthz and /readyz on every process (the gateway: on both of its ports)', async () => {
    for (const proc of [topology.gateway, topology.catalog, topology.collections]) {
      for (const port of new Set([proc.port, proc.metricsPort])) {
        for (const [path, status] of [
          ['/healthz', 'ok'],
          ['/readyz', 'ready'],
        ] as const) {
          const res = await fetch(`http://127.0.0.1:${port}${path}`);
          expect([proc.name, port, path, res.status, await res.json()]).toEqual([
            proc.name,
            port,
            path,
            200,
            { data: { status } },
          ]);
        }
      }
    }
  });

  it("keeps the gateway's metrics off its public port", async () => {
    const res = await fetch(`http://127.0.0.1:${topology.gateway.port}/metrics`);
    expect(res.status).toBe(404);
  });
});
