/**
 * What the gateway reuses and relays for governed collections: the answer
 * cache never serves one workspace policy's search answer to another (nor
 * to a search without a policy), and the lockfile passes through as the
 * service made it (its ETag, its 304, its Content-Disposition).
 */
import { createHash } from 'node:crypto';
import { FakeWorkspaces } from './governance-fakes';
import { startHarness, type FakeAnswer, type Harness } from './harness';

describe('gateway answer cache under workspace policies', () => {
  let h: Harness;
  let spaces: FakeWorkspaces;
  beforeAll(async () => {
    // a clock that stands still: what a test repeats is still cached, however slow the machine
    h = await startHarness({ answerCache: { ttlMs: 1_000, maxEntries: 100 } }, { now: () => 9_000_000 });
    spaces = new FakeWorkspaces(h);
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  const searches = (url: string) => h.catalog.received.filter((line) => line === `GET ${url}`).length;
  /** The policy catalog-service was handed for the answer this search got. */
  const policyOf = async (key: string, url: string) => {
    const res = await h.http.get(url).set('Authorization', `Bearer ${key}`).expect(200);
    return res.body.data.principal.searchPolicy ?? null;
  };

  it('keeps one answer per policy: two workspaces and no workspace each get their own for the same URL', async () => {
    const member = await h.accountWithKey('pro');
    const [mit, gpl] = [spaces.create([member.accountId], ['mit']), spaces.create([member.accountId], ['gpl-3.0'])];
    const url = '/api/v1/skills?q=same-query';
    expect(await policyOf(member.key, `${url}&workspace=${mit}`)).toEqual(spaces.policies.get(mit));
    expect(await policyOf(member.key, `${url}&workspace=${gpl}`)).toEqual(spaces.policies.get(gpl));
    expect(await policyOf(member.key, url)).toBeNull();
    // each again: from the cache, and still each its own
    expect(await policyOf(member.key, `${url}&workspace=${mit}`)).toEqual(spaces.policies.get(mit));
    expect(await policyOf(member.key, url)).toBeNull();
    expect([searches(`${url}&workspace=${mit}`), searches(`${url}&workspace=${gpl}`), searches(url)]).toEqual([
      1, 1, 1,
    ]);
  });

  it('never hands a bound key the answer an unbound key got for the very same URL, nor the reverse', async () => {
    const member = await h.accountWithKey('pro');
    const team = spaces.create([member.accountId], ['apache-2.0']);
    const b = await boundKeyOf(member.accountId, team);
    const url = '/api/v1/skills?q=bound-or-not';
    expect(await policyOf(member.key, url)).toBeNull();
    expect(await policyOf(b, url)).toEqual(spaces.policies.get(team));
    expect(await policyOf(member.key, url)).toBeNull();
    expect(searches(url)).toBe(2);
  });

  it("gives the changed policy's answer right after a policy PUT, not the one kept for the old policy", async () => {
    const member = await h.accountWithKey('pro');
    const team = spaces.create([member.accountId], ['mit']);
    const url = `/api/v1/skills?q=policy-change&workspace=${team}`;
    expect(await policyOf(member.key, url)).toMatchObject({ licenses: ['mit'] });
    spaces.setPolicy(team, ['bsd-3-clause']);
    await h.http
      .put(`/api/v1/workspaces/${team}/policy`)
      .set('Authorization', `Bearer ${member.key}`)
      .send({ allowedLicenses: ['BSD-3-Clause'] })
      .expect(200);
    expect(await policyOf(member.key, url)).toMatchObject({ licenses: ['bsd-3-clause'] });
    expect(searches(url)).toBe(2);
  });

  /** A key of `accountId` bound to `workspaceId`, written straight into the gateway's store (the console's way is governance-keys.test.ts). */
  async function boundKeyOf(accountId: string, workspaceId: string): Promise<string> {
    const { Client } = await import('pg');
    const created = await h.admin('post', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'bound' }).expect(201);
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await client.query('UPDATE gateway.api_keys SET workspace_id = $1 WHERE id = $2', [
        workspaceId,
        created.body.data.apiKey.id,
      ]);
    } finally {
      await client.end();
    }
    return created.body.data.apiKey.key as string;
  }
});

describe('gateway relay of the lockfile', () => {
  let h: Harness;
  const document = '{"lockfileVersion":2,"entries":[]}\n';
  const etag = `"sha256-${createHash('sha256').update(document).digest('hex')}"`;

  beforeAll(async () => {
    h = await startHarness();
    h.collections.answer = (req): FakeAnswer | undefined => {
      if (!req.path.endsWith('/lockfile')) return undefined;
      const disposition = 'attachment; filename="team-tools.lock.json"';
      if (req.get('if-none-match') === etag) return { status: 304, headers: { ETag: etag } };
      return {
        status: 200,
        raw: document,
        headers: {
          'Content-Type': 'application/json',
          ETag: etag,
          'Content-Disposition': disposition,
          'Cache-Control': 'private, no-cache',
        },
      };
    };
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it("relays the document byte for byte with the service's ETag and Content-Disposition, and its 304", async () => {
    const { key } = await h.accountWithKey('pro');
    const path =
      '/api/v1/workspaces/0b5c2f3e-1d4a-4c6b-9e8f-7a6b5c4d3e2f/collections/5d6e7f80-91a2-4b3c-8d4e-5f6a7b8c9d0e/lockfile';
    const res = await h.http
      .get(path)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.body).toBe(document);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['content-disposition']).toBe('attachment; filename="team-tools.lock.json"');
    const again = await h.http.get(path).set('Authorization', `Bearer ${key}`).set('If-None-Match', etag).expect(304);
    expect(again.headers.etag).toBe(etag);
  });
});
