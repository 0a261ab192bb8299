/**
 * A principal key rotation under traffic, as docs/security.md tells an
 * operator to do it: the three services as real processes reading their key
 * files, clients calling every service through the gateway all along, and
 * the rotation's three steps (`principal-keys rotate-start`, `rotate-sign`,
 * `rotate-finish`) each taken once the processes have read the previous one.
 * Not one request may fail, and the old key must be refused at the end.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRINCIPAL_HEADER, PrincipalSigner, fixedKeys, parseSigningKey } from '@skills/common';
import {
  finishRotation,
  keyStatus,
  signWithNextKey,
  startRotation,
  type KeyPaths,
} from '../../../src/principal-key-rotation';
import { Client } from '../e2e/helpers';
import {
  ADMIN_TOKEN,
  ITEMS_READER_TOKEN,
  PRINCIPAL_KEYS,
  newKey,
  serviceProcesses,
  startDatabase,
  type Proc,
  type TestDatabaseProcess,
} from '../reliability/processes';
import { until } from '@skills/common/testing';

const RELOAD_MS = '100';
const TRAFFIC_LOOPS = 4;

interface Traffic {
  /** requests answered so far, and the failures among them (status >= 400 but a 503 with Retry-After, or no answer) */
  done: number;
  failures: string[];
  stop(): Promise<void>;
}

/** Clients calling catalog-service, collections-service (reads and writes) and an admin route, back to back. */
function startTraffic(client: Client, key: string, collectionId: string): Traffic {
  const traffic = { done: 0, failures: [] as string[], running: true };
  const answer = (what: string) => (res: { status: number; headers: Headers }) => ({
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    what,
  });
  const calls: Array<() => Promise<{ status: number; retryAfter?: string | null; what: string }>> = [
    async () => answer('search')(await client.call('GET', '/api/v1/skills?q=rotation', { token: key })),
    async () => answer('read')(await client.call('GET', `/api/v1/me/collections/${collectionId}`, { token: key })),
    async () =>
      answer('write')(
        await client.call('PATCH', `/api/v1/me/collections/${collectionId}`, {
          token: key,
          json: { description: randomUUID() },
        }),
      ),
    async () => answer('admin read')(await client.call('GET', '/admin/v1/items?limit=1', { token: ADMIN_TOKEN })),
  ];
  const loop = async (n: number) => {
    for (let i = n; traffic.running; i++) {
      const call = calls[i % calls.length] as (typeof calls)[number];
      const result = await call().catch((err: unknown) => ({
        status: 0,
        retryAfter: null,
        what: `no answer: ${(err as Error).message}`,
      }));
      traffic.done += 1;
      // A 503 with Retry-After is a starved machine's "busy, come back" (a principal that outlived its
      // seconds on the way, a shed request), which a client honours; a key the services refuse is a 401.
      if (result.status === 503 && result.retryAfter)
        await new Promise((r) => setTimeout(r, Number(result.retryAfter) * 1000));
      else if (result.status === 0 || result.status >= 400) traffic.failures.push(`${result.what}: ${result.status}`);
    }
  };
  const loops = Array.from({ length: TRAFFIC_LOOPS }, (_, n) => loop(n));
  return {
    get done() {
      return traffic.done;
    },
    failures: traffic.failures,
    async stop() {
      traffic.running = false;
      await Promise.all(loops);
    },
  };
}

/** The kids a process logged with its last "…keys loaded" line. */
function loadedKids(proc: Proc): string[] | undefined {
  const loaded = proc.lines
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; kids?: string[] };
      } catch {
        return {};
      }
    })
    .filter((entry) => entry.msg?.startsWith('principal ') && entry.msg.endsWith(' loaded'));
  return loaded.at(-1)?.kids;
}

const same = (a: string[] | undefined, b: string[]) => a !== undefined && [...a].sort().join() === [...b].sort().join();

describe('principal key rotation under traffic', () => {
  let dataDir: string;
  let db: TestDatabaseProcess | undefined;
  const started: Proc[] = [];

  afterAll(async () => {
    for (const proc of started.reverse()) await proc.stop('SIGKILL');
    await db?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('moves every service to a new key with no failed request, and refuses the old key after', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'skills-rotation-'));
    db = await startDatabase(dataDir);
    const files = await PRINCIPAL_KEYS.writeTo(dataDir);
    const paths: KeyPaths = files;
    const { collections, catalog, gateway } = await serviceProcesses({
      shared: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info', PRINCIPAL_KEYS_RELOAD_MS: RELOAD_MS },
      credentials: {
        gateway: { PRINCIPAL_SIGNING_KEY_FILE: files.signingKeyFile },
        services: { PRINCIPAL_PUBLIC_KEYS_FILE: files.publicKeysFile, ITEMS_READER_TOKEN },
      },
      // far above this traffic: a 429 would hide what is measured
      gatewayEnv: { RATE_LIMIT_PRO_PER_MINUTE: '1000000' },
    });
    for (const proc of [collections, catalog, gateway]) {
      started.push(proc);
      await proc.start(() => proc.serving());
    }
    const client = new Client(`http://127.0.0.1:${gateway.port}`);
    const { key } = await newKey(client, 'pro');
    const created = await client.call('POST', '/api/v1/me/collections', { token: key, json: { name: 'Rotation' } });
    expect(created.status).toBe(201);
    const oldKid = (await keyStatus(paths)).signingKid;

    const traffic = startTraffic(client, key, created.body.data.collection.id as string);
    const after = async (more: number) => {
      const from = traffic.done;
      await until(() => traffic.done >= from + more, `${more} more requests answered`);
    };
    try {
      await after(20);
      // 1. The services accept the old and the new key.
      const { nextKid } = await startRotation(paths);
      const both = [oldKid, nextKid as string];
      await until(
        () => same(loadedKids(collections), both) && same(loadedKids(catalog), both),
        'both services accept both keys',
      );
      await after(20);
      // 2. The gateway signs with the new key.
      await signWithNextKey(paths);
      await until(() => same(loadedKids(gateway), [nextKid as string]), 'the gateway signs with the new key');
      // every loop finished a request begun after the switch: no header signed with the old key is in flight
      await after(TRAFFIC_LOOPS * 2);
      // 3. The services accept the new key only.
      await finishRotation(paths);
      await until(
        () => same(loadedKids(collections), [nextKid as string]) && same(loadedKids(catalog), [nextKid as string]),
        'both services accept the new key only',
      );
      await after(20);
    } finally {
      await traffic.stop();
    }
    expect(traffic.failures).toEqual([]);
    expect(traffic.done).toBeGreaterThan(80);

    // The old key is out: a header it signs is refused, one the new key signs is accepted.
    const url = '/api/v1/me/collections';
    const send = (signer: PrincipalSigner) =>
      fetch(`http://127.0.0.1:${collections.port}${url}`, {
        headers: {
          [PRINCIPAL_HEADER]: signer.sign(
            { kind: 'account', accountId: randomUUID(), plan: 'pro', keyId: 'k' },
            'collections-service',
            'GET',
            url,
          ),
        },
      });
    expect((await send(PRINCIPAL_KEYS.signer())).status).toBe(401);
    const current = new PrincipalSigner({
      keys: fixedKeys(parseSigningKey(await readFile(paths.signingKeyFile, 'utf8'))),
    });
    expect((await send(current)).status).toBe(200);
  });
});
