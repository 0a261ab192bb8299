/**
 * API keys and the process lifecycle end to end: every 401 of the contract
 * (EN and FR), revocation on the next request, the admin CLI against the
 * running stack, SIGTERM → exit 0, and a restart that keeps the data and the
 * admin token but issues a new demo key and revokes the previous one.
 */
import { execFile, spawnSync } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { FR, newAccount, startStack, TEXTS, type Json, type Stack } from './helpers';
import { eventually } from '@skills/common/testing';

const run = promisify(execFile);
const CLI = resolve(__dirname, '..', '..', '..', 'dist', 'cli', 'admin.js');

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ fresh: true });
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('401 Invalid or revoked API key', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without a key', { authorization: 'Bearer' }],
    ['a key of the wrong shape', { authorization: 'Bearer not-a-key' }],
    ['a well-formed unknown key', { authorization: `Bearer sk_live_${'A1b2C3d4'.repeat(4)}` }],
  ];

  it.each(cases)('answers %s with the contract text, on every operation', async (_label, headers) => {
    const paths: Array<[string, string]> = [
      ['GET', '/api/v1/skills'],
      ['GET', '/api/v1/me/collections'],
      ['DELETE', `/api/v1/me/collections/${stack.info.collectionId}`],
      ['POST', `/api/v1/workspaces/${stack.info.workspaceId}/collections`],
    ];
    for (const [method, path] of paths) {
      const r = await stack.client.call(method, path, { headers });
      expect({ method, path, status: r.status, body: r.body }).toEqual({
        method,
        path,
        status: 401,
        body: { error: TEXTS.invalidKey.en },
      });
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
    const fr = await stack.client.call('GET', '/api/v1/skills', { headers: { ...headers, ...FR } });
    expect(fr).toMatchObject({ status: 401, body: { error: TEXTS.invalidKey.fr } });
  });

  it('refuses a revoked key from the very next request', async () => {
    const account = await newAccount(stack);
    const me = () => stack.client.call('GET', '/api/v1/me/collections', { token: account.key });
    expect((await me()).status).toBe(200);
    const revoked = await stack.client.call('DELETE', `/admin/v1/api-keys/${account.keyId}`, { token: stack.admin });
    expect(revoked).toMatchObject({ status: 200, body: { data: { revoked: true } } });
    expect(await me()).toMatchObject({ status: 401, body: { error: TEXTS.invalidKey.en } });
    // The collections it made are still there for the account's other keys.
    const other = await stack.client.call('POST', `/admin/v1/accounts/${account.id}/api-keys`, {
      token: stack.admin,
      json: {},
    });
    expect(
      (await stack.client.call('GET', '/api/v1/me/collections', { token: other.body.data.apiKey.key })).status,
    ).toBe(200);
  });
});

describe('admin CLI against the running stack', () => {
  const cli = (...args: string[]) =>
    run(process.execPath, [CLI, ...args, '--url', stack.info.url], {
      env: { ...process.env, ADMIN_TOKEN: '', DATA_DIR: stack.dataDir, NODE_OPTIONS: '' },
    });

  it('reads the admin token from DATA_DIR and creates an account, a key and a skill', async () => {
    const account = JSON.parse(
      (await cli('accounts', 'create', '--email', 'cli@example.com', '--plan', 'pro')).stdout,
    ) as Json;
    expect(account.account).toMatchObject({ email: 'cli@example.com', plan: 'pro' });
    const key = JSON.parse((await cli('keys', 'create', account.account.id, '--name', 'cli')).stdout) as Json;
    expect(key.apiKey.key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const put = await cli(
      'skills',
      'put',
      'cli-made-skill',
      '--name',
      'Quokka Formatter',
      '--description',
      'Formats quokkas.',
      '--type',
      'skill',
      '--category',
      'productivity',
      '--tags',
      'cli,e2e',
    );
    expect(JSON.parse(put.stdout).skill).toMatchObject({ slug: 'cli-made-skill', tags: ['cli', 'e2e'] });
    await eventually(
      async () => {
        const r = await stack.client.call('GET', '/api/v1/skills?q=quokka', { token: key.apiKey.key });
        return r.body.data?.skills.some((s: Json) => s.slug === 'cli-made-skill') ? true : undefined;
      },
      'CLI skill searchable',
      15_000,
    );
  }, 60_000);

  it('reads the audit trail: key issuance and revocation, plan changes and failed authentications, never a secret', async () => {
    const account = JSON.parse(
      (await cli('accounts', 'create', '--email', 'audited-cli@example.com', '--plan', 'pro')).stdout,
    ) as Json;
    const id = account.account.id as string;
    const key = JSON.parse((await cli('keys', 'create', id, '--name', 'audited')).stdout) as Json;
    await cli('accounts', 'set-plan', id, 'team');
    await cli('keys', 'revoke', key.apiKey.id);
    const trail = await cli('audit', '--account', id);
    const events = (JSON.parse(trail.stdout) as Json).events as Json[];
    expect(events.map((e) => e.action)).toEqual([
      'api_key.revoke',
      'account.plan_change',
      'api_key.issue',
      'account.create',
    ]);
    expect(events.every((e) => e.actor.kind === 'admin' && typeof e.requestId === 'string')).toBe(true);
    expect(trail.stdout).not.toContain(key.apiKey.key);
    // the revoked key, tried: a failed authentication from this address reaches the trail within its flush interval
    expect((await stack.client.call('GET', '/api/v1/skills', { token: key.apiKey.key })).status).toBe(401);
    await eventually(
      async () => {
        const failures = (JSON.parse((await cli('audit', '--action', 'auth.failure')).stdout) as Json).events as Json[];
        return failures.some((e) => e.details.reason === 'api_key') ? true : undefined;
      },
      'failed authentication in the audit trail',
      20_000,
    );
  }, 60_000);

  it('streams an ndjson import and prints the imported count', async () => {
    const file = join(stack.dataDir, 'extra.ndjson');
    const line = (n: number) =>
      JSON.stringify({
        slug: `cli-import-${n}`,
        name: `Imported ${n}`,
        description: 'From the CLI.',
        type: 'plugin',
        category: 'devops',
      });
    await writeFile(file, [1, 2, 3].map(line).join('\n'));
    const { stdout } = await cli('skills', 'import', file);
    expect(JSON.parse(stdout)).toEqual({ imported: 3 });
  });

  it('prints the API error and exits 1', async () => {
    const failed = await cli('accounts', 'set-plan', '00000000-0000-4000-8000-000000000000', 'pro').catch(
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(failed).toMatchObject({ code: 1, stderr: 'error (404): Account not found\n' });
  });
});

describe('the embedded default is closed to the network and to other local users', () => {
  it('listens on loopback only: the gateway, its monitoring port, the services and the database', () => {
    const ss = spawnSync('ss', ['-ltnpH'], { encoding: 'utf8' });
    expect(ss.status).toBe(0);
    // the launcher hosts the database; each service is a child process of its own
    const pids = [stack.pid, ...childPids(stack.pid)];
    const mine = ss.stdout.split('\n').filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)));
    // gateway, monitoring, catalog-service, collections-service, and the embedded database unless on a server
    expect(mine.length).toBeGreaterThanOrEqual(stack.database ? 4 : 5);
    const addresses = mine.map((line) => line.trim().split(/\s+/)[3] as string);
    expect(addresses.filter((a) => !/^(127\.0\.0\.1|\[::1\]):\d+$/.test(a))).toEqual([]);
  });

  it('keeps DATA_DIR (database files, admin token) to its owner', async () => {
    expect((await stat(stack.dataDir)).mode & 0o777).toBe(0o700);
    // the database's own directory too, which the embedded Postgres creates
    if (!stack.database) expect((await stat(join(stack.dataDir, 'pgdata'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(stack.dataDir, 'admin-token'))).mode & 0o777).toBe(0o600);
  });
});

/** The direct children of a process, from /proc (its `children` file lists them per thread). */
function childPids(pid: number | undefined): number[] {
  const tasks = readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

describe('process lifecycle', () => {
  it('exits 0 on SIGTERM and restarts on the same data with the same admin token, a new demo key and a demo collection', async () => {
    const first = stack.info;
    expect(first.seeded).toBe(true);
    // The last example of docs/getting-started.md deletes the demo collection; the next start makes a new one.
    await stack.client.call('DELETE', `/api/v1/me/collections/${first.collectionId}`, { token: first.apiKey });
    // a key of the demo account the user made for themself
    const own = await stack.client.call('POST', `/admin/v1/accounts/${first.accountId}/api-keys`, {
      token: stack.admin,
      json: { name: 'my script' },
    });
    const ownKey = own.body.data.apiKey.key as string;
    expect(await stack.stop('SIGTERM')).toBe(0);

    const again = await startStack({ dataDir: stack.dataDir, database: stack.database });
    try {
      expect(again.info).toMatchObject({
        seeded: false,
        adminToken: first.adminToken,
        accountId: first.accountId,
        workspaceId: first.workspaceId,
      });
      expect(again.info.apiKey).not.toBe(first.apiKey);
      expect(again.info.collectionId).not.toBe(first.collectionId);
      const r = await again.client.call('GET', `/api/v1/me/collections/${again.info.collectionId}`, {
        token: again.info.apiKey,
      });
      expect(r.status).toBe(200);
      expect(r.body.data.collection.skills.map((s: Json) => s.slug)).toContain('dockerfile-linter');
      // The first start's demo key is revoked now that a new one was printed; a key the user made stays.
      expect((await again.client.call('GET', '/api/v1/me/collections', { token: first.apiKey })).status).toBe(401);
      expect((await again.client.call('GET', '/api/v1/me/collections', { token: ownKey })).status).toBe(200);
      expect(await again.stop('SIGTERM')).toBe(0);
    } finally {
      await again.dispose();
    }
  }, 180_000);
});
