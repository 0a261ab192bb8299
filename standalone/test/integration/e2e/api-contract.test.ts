/**
 * The client experience of the public API on the real stack: rate limits by
 * plan, conditional reads (ETag / 304 / Cache-Control), Idempotency-Key on
 * the creates, and the docs page rendered in headless Chromium. Every answer
 * is checked against the OpenAPI document by the helpers.
 *
 * One stack for the file: team keys get a tiny budget (the rate-limit test
 * uses them), every other test uses pro keys, whose limit stays high (the
 * launcher's demo seed calls the API with a pro key while starting).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@skills/client';
import { openApiDocument } from '@skills/gateway';
import { FR, loggedVerificationLink, newAccount, startStack, type Stack } from './helpers';

const TEAM_LIMIT = 4;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    env: { RATE_LIMIT_PRO_PER_MINUTE: '100000', RATE_LIMIT_TEAM_PER_MINUTE: String(TEAM_LIMIT) },
  });
}, 150_000);
afterAll(async () => {
  await stack?.dispose();
}, 30_000);

describe('rate limits by plan', () => {
  it('counts a team account down on every answer, then refuses it with 429, Retry-After and a localised error', async () => {
    const { key, id } = await newAccount(stack, 'team');
    for (let left = TEAM_LIMIT - 1; left >= 0; left -= 1) {
      const ok = await stack.client.call('GET', '/api/v1/skills?q=docker', { token: key });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe(String(TEAM_LIMIT));
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(left));
      expect(Number(ok.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
    const over = await stack.client.call('GET', '/api/v1/me/collections', { token: key, headers: FR });
    expect(over.status).toBe(429);
    const seconds = Number(over.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    // a sliding window: the budget spent in this window comes back over the next one
    expect(seconds).toBeLessThanOrEqual(120);
    expect(over.body).toEqual({ error: `Limite de requêtes dépassée ; réessayez dans ${seconds} s` });
    // the budget is the account's: a new key of the same account is refused too
    const second = await stack.client.call('POST', `/admin/v1/accounts/${id}/api-keys`, {
      token: stack.admin,
      json: { name: 'second' },
    });
    const again = await stack.client.call('GET', '/api/v1/skills?q=docker', {
      token: second.body.data.apiKey.key as string,
    });
    expect(again.status).toBe(429);
    // the typed client surfaces it with retryAfter
    const error = await stack
      .api(key)
      .listMyCollections()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfter: expect.any(Number) });
  }, 30_000);

  it('gives a pro key the pro budget', async () => {
    const { key } = await newAccount(stack, 'pro');
    const ok = await stack.client.call('GET', '/api/v1/me/collections', { token: key });
    expect(ok.headers.get('ratelimit-limit')).toBe('100000');
  });
});

describe('conditional reads', () => {
  it('answers If-None-Match with a bodiless 304 until the collection changes', async () => {
    const { key } = await newAccount(stack, 'pro');
    const created = await stack.api(key).createMyCollection({ name: 'Cached' });
    const path = `/api/v1/me/collections/${created.id}`;
    const first = await stack.client.call('GET', path, { token: key });
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const same = await stack.client.call('GET', path, {
      token: key,
      headers: { 'if-none-match': `"older", W/${etag}` },
    });
    expect(same.status).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.get('etag')).toBe(etag);

    await stack.api(key).updateMyCollection(created.id, { name: 'Renamed' });
    const changed = await stack.client.call('GET', path, { token: key, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.collection.name).toBe('Renamed');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('lets a search answer be cached privately for 5 seconds', async () => {
    const { key } = await newAccount(stack, 'pro');
    const res = await stack.client.call('GET', '/api/v1/skills?q=docker&limit=3', { token: key });
    expect(res.headers.get('cache-control')).toBe('private, max-age=5');
    const again = await stack.client.call('GET', '/api/v1/skills?q=docker&limit=3', {
      token: key,
      headers: { 'if-none-match': res.headers.get('etag') as string },
    });
    expect(again.status).toBe(304);
  });
});

describe('Idempotency-Key', () => {
  it('creates once for a retried personal create and replays the first answer', async () => {
    const { key } = await newAccount(stack, 'pro');
    const api = stack.api(key);
    const input = { name: 'Retried', description: 'sent twice' };
    const first = await api.createMyCollection(input, { idempotencyKey: 'e2e-retry-1' });
    const second = await api.createMyCollection(input, { idempotencyKey: 'e2e-retry-1' });
    expect(second).toEqual(first);
    expect((await api.listMyCollections()).filter((c) => c.name === 'Retried')).toHaveLength(1);

    const raw = await stack.client.call('POST', '/api/v1/me/collections', {
      token: key,
      json: input,
      headers: { 'idempotency-key': 'e2e-retry-1' },
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the same key with another body, and a malformed key', async () => {
    const { key } = await newAccount(stack, 'pro');
    const post = (json: object, idempotencyKey: string) =>
      stack.client.call('POST', '/api/v1/me/collections', {
        token: key,
        json,
        headers: { 'idempotency-key': idempotencyKey, ...FR },
      });
    expect((await post({ name: 'One' }, 'e2e-conflict')).status).toBe(201);
    const conflict = await post({ name: 'Two' }, 'e2e-conflict');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: 'Idempotency-Key a déjà été utilisée avec un autre corps de requête' });
    const malformed = await post({ name: 'Three' }, 'x'.repeat(256));
    expect(malformed.status).toBe(400);
  });

  it('replays a team collection create in its workspace', async () => {
    // a second member of the demo workspace, so the demo key's data stays as seeded
    const member = await newAccount(stack, 'pro');
    const put = await stack.client.call('PUT', `/admin/v1/workspaces/${stack.info.workspaceId}/members/${member.id}`, {
      token: stack.admin,
      json: { role: 'member' },
    });
    expect(put.status).toBe(200);
    const team = stack.api(member.key);
    const first = await team.createWorkspaceCollection(
      stack.info.workspaceId,
      { name: 'Release kit' },
      { idempotencyKey: 'e2e-team' },
    );
    const again = await team.createWorkspaceCollection(
      stack.info.workspaceId,
      { name: 'Release kit' },
      { idempotencyKey: 'e2e-team' },
    );
    expect(again.id).toBe(first.id);
  });

  it('checks access again before replaying: a member demoted to viewer gets 403, not the stored answer', async () => {
    const member = await newAccount(stack, 'pro');
    const setRole = (role: string) =>
      stack.client.call('PUT', `/admin/v1/workspaces/${stack.info.workspaceId}/members/${member.id}`, {
        token: stack.admin,
        json: { role },
      });
    expect((await setRole('member')).status).toBe(200);
    const post = () =>
      stack.client.call('POST', `/api/v1/workspaces/${stack.info.workspaceId}/collections`, {
        token: member.key,
        json: { name: 'Before the demotion' },
        headers: { 'idempotency-key': 'e2e-demoted' },
      });
    expect((await post()).status).toBe(201);
    expect((await setRole('viewer')).status).toBe(200);
    const replay = await post();
    expect(replay.status).toBe(403);
    expect(replay.body).toEqual({ error: 'Your workspace role does not allow this action' });
  });
});

describe('conditional writes (If-Match)', () => {
  it('applies a PATCH or DELETE only to the version read, through the gateway: 412 on a stale ETag', async () => {
    const { key } = await newAccount(stack, 'pro');
    const created = await stack.api(key).createMyCollection({ name: 'Shared list' });
    const path = `/api/v1/me/collections/${created.id}`;
    const read = await stack.client.call('GET', path, { token: key });
    const etag = read.headers.get('etag') as string;
    // another client of the same account renames it in between
    const other = await stack.client.call('PATCH', path, { token: key, json: { name: 'Renamed elsewhere' } });
    expect(other.status).toBe(200);
    const current = other.headers.get('etag') as string;
    expect(current).not.toBe(etag);

    const lost = await stack.client.call('PATCH', path, {
      token: key,
      json: { name: 'My rename' },
      headers: { 'if-match': etag, ...FR },
    });
    expect(lost.status).toBe(412);
    expect(lost.body).toEqual({
      error:
        'La collection a changé depuis votre lecture : relisez-la, puis réessayez avec son nouvel ETag dans If-Match',
    });
    expect((await stack.client.call('DELETE', path, { token: key, headers: { 'if-match': etag } })).status).toBe(412);
    expect((await stack.client.call('GET', path, { token: key })).body.data.collection.name).toBe('Renamed elsewhere');

    const applied = await stack.client.call('PATCH', path, {
      token: key,
      json: { name: 'My rename' },
      headers: { 'if-match': current },
    });
    expect(applied.status).toBe(200);
    // the ETag of a PATCH answer is the one a read gives
    const reread = await stack.client.call('GET', path, { token: key });
    expect(reread.headers.get('etag')).toBe(applied.headers.get('etag'));
    expect(
      (
        await stack.client.call('DELETE', path, {
          token: key,
          headers: { 'if-match': applied.headers.get('etag') as string },
        })
      ).status,
    ).toBe(200);
  });

  it('stores names NFC-normalised and refuses bidi control characters with 400', async () => {
    const { key } = await newAccount(stack, 'pro');
    const composed = await stack.client.call('POST', '/api/v1/me/collections', {
      token: key,
      json: { name: 'Re\u0301sume\u0301s' },
    });
    expect(composed.status).toBe(201);
    expect(composed.body.data.collection.name).toBe('Résumés');
    const spoofed = await stack.client.call('POST', '/api/v1/me/collections', {
      token: key,
      json: { name: 'report\u202Efdp.exe' },
    });
    expect(spoofed.status).toBe(400);
    expect(spoofed.body).toEqual({ error: '"name" must not contain bidirectional control characters' });
  });
});

describe('the self-service operations (docs/collections.md), each answer checked against the document', () => {
  /** A person signed up in the console, address verified: its cookie and CSRF token, as a browser sends them. */
  async function consoleSession(email: string) {
    const logged = stack.stdout().length;
    const signedUp = await stack.client.call('POST', '/api/v1/auth/sign-up', {
      json: { email, password: 'juniper-lantern-oboe-42' },
      headers: { origin: stack.info.url },
    });
    // the same answer for any address, no session: the mailed (here logged) link, with the password, signs in
    expect(signedUp.status).toBe(202);
    expect(signedUp.body).toEqual({ data: { requested: true } });
    const link = await loggedVerificationLink(stack, logged);
    const verified = await stack.client.call('POST', '/api/v1/auth/verify-email', {
      json: { token: /#token=(.+)$/.exec(link)?.[1], password: 'juniper-lantern-oboe-42' },
      headers: { origin: stack.info.url },
    });
    expect(verified.status).toBe(200);
    const cookie = (verified.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const headers = { cookie, origin: stack.info.url, 'x-csrf-token': verified.body.data.csrfToken as string };
    return { id: verified.body.data.account.id as string, headers };
  }

  it('creates a workspace, invites, lets a person accept, lists members, changes a role, revokes and removes', async () => {
    const { key } = await newAccount(stack, 'pro');
    const api = stack.api(key);
    const workspace = await api.createWorkspace({ name: 'Contract team' });
    expect(workspace).toMatchObject({ name: 'Contract team', role: 'owner', memberCount: 1 });
    expect(await api.getWorkspace(workspace.id)).toEqual(workspace);
    expect((await api.listWorkspaces()).map((w) => w.id)).toEqual([workspace.id]);

    const invitation = await api.createWorkspaceInvitation(workspace.id, { role: 'member', expiresInDays: 3 });
    expect(invitation).toMatchObject({ workspaceId: workspace.id, role: 'member', email: null, mailed: false });
    const { url: _url, mailed: _mailed, ...pending } = invitation;
    expect(await api.listWorkspaceInvitations(workspace.id)).toEqual([pending]);

    const person = await consoleSession(`contract-${Date.now()}@example.com`);
    const token = /#token=(.+)$/.exec(invitation.url)?.[1];
    const preview = await stack.client.call('POST', '/api/v1/invitations/preview', {
      json: { token },
      headers: person.headers,
    });
    expect(preview.body.data.invitation.workspace).toEqual({ id: workspace.id, name: 'Contract team' });
    const accepted = await stack.client.call('POST', '/api/v1/invitations/accept', {
      json: { token },
      headers: person.headers,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.workspace).toMatchObject({ id: workspace.id, role: 'member', memberCount: 2 });

    const members = await api.listWorkspaceMembers(workspace.id);
    expect(members.map((m) => [m.role, m.email])).toEqual([
      ['owner', expect.stringMatching(/@example\.com$/)],
      ['member', expect.stringMatching(/^contract-/)],
    ]);
    expect(await api.setWorkspaceMemberRole(workspace.id, person.id, 'viewer')).toMatchObject({
      accountId: person.id,
      role: 'viewer',
    });
    const refused = await stack.client.call('POST', `/api/v1/workspaces/${workspace.id}/collections`, {
      json: { name: 'x' },
      headers: person.headers,
    });
    expect(refused.status).toBe(403);

    const second = await api.createWorkspaceInvitation(workspace.id, { role: 'viewer' });
    await api.revokeWorkspaceInvitation(workspace.id, second.id);
    expect(await api.listWorkspaceInvitations(workspace.id)).toEqual([]);
    await api.removeWorkspaceMember(workspace.id, person.id);
    expect(
      (await stack.client.call('GET', `/api/v1/workspaces/${workspace.id}`, { headers: person.headers })).status,
    ).toBe(403);
  }, 30_000);

  it('creates and lists private skills, and reads one item with every field', async () => {
    const { key } = await newAccount(stack, 'pro');
    const api = stack.api(key, 'fr');
    const skill = await api.createMyPrivateSkill({ name: 'Checklist', description: 'Before a release' });
    expect((await api.listMyPrivateSkillsPage()).skills).toEqual([skill]);
    const mine = await api.createMyCollection({ name: 'Mine' });
    expect((await api.updateMyCollection(mine.id, { privateSkillId: skill.id })).skills).toEqual([
      { ...skill, visibility: 'private' },
    ]);

    const item = await api.getSkill('dockerfile-linter');
    expect(item).toMatchObject({
      slug: 'dockerfile-linter',
      publisher: expect.any(String),
      version: expect.any(String),
      license: expect.any(String),
    });
    const missing = await api.getSkill('no-such-skill').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, message: 'Compétence « no-such-skill » introuvable' });
  });
});

const CHROMIUM = '/usr/bin/chromium';
const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

describeBrowser('the docs page in headless Chromium', () => {
  const flags = (dir: string) => [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--user-data-dir=${dir}`,
    // lets Swagger UI fetch the document and render before the DOM is dumped / the shot is taken
    '--virtual-time-budget=5000',
  ];

  it('renders every operation of the document under its Content-Security-Policy, and can be screenshotted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skills-docs-'));
    try {
      const url = `${stack.info.url}/docs`;
      const csp = (await fetch(url)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      // --log-level=0 writes the page's console to stderr, CSP violations included
      const logged = [...flags(join(dir, 'a')), '--enable-logging=stderr', '--log-level=0', '--dump-dom', url];
      const dump = spawnSync(CHROMIUM, logged, { encoding: 'utf8', timeout: 90_000 });
      expect(dump.status).toBe(0);
      expect(dump.stderr.split('\n').filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
      // operations-<tag>-<operationId>: a tag may hold hyphens ("Sign-in"), an operation id never does
      const ids = new Set([...dump.stdout.matchAll(/id="operations-[^"]*-([A-Za-z0-9]+)"/g)].map((m) => m[1]));
      const documented = Object.values(openApiDocument.paths).flatMap((item) =>
        Object.values(item).flatMap((op) =>
          op && typeof op === 'object' && 'operationId' in op ? [String(op.operationId)] : [],
        ),
      );
      expect(documented.length).toBeGreaterThan(20);
      expect(documented.filter((id) => !ids.has(id))).toEqual([]);

      const png = join(dir, 'docs.png');
      // Headless Chromium on a loaded machine can exit 0 without having written the shot: a second try, then its stderr.
      let shot = spawnSync(
        CHROMIUM,
        [...flags(join(dir, 'b')), '--window-size=1280,1600', `--screenshot=${png}`, url],
        { encoding: 'utf8', timeout: 90_000 },
      );
      if (shot.status === 0 && !existsSync(png)) {
        shot = spawnSync(CHROMIUM, [...flags(join(dir, 'c')), '--window-size=1280,1600', `--screenshot=${png}`, url], {
          encoding: 'utf8',
          timeout: 90_000,
        });
      }
      expect(shot.status).toBe(0);
      expect({ written: existsSync(png), stderr: existsSync(png) ? '' : shot.stderr }).toEqual({
        written: true,
        stderr: '',
      });
      const bytes = await readFile(png);
      expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
      // a blank page compresses to a few kB; the rendered page is far larger
      expect(bytes.length).toBeGreaterThan(50_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 200_000);
});
