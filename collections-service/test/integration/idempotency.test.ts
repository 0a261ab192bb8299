// @store-specific concurrent duplicates: PGlite serializes them, the server races them
import { randomUUID } from 'node:crypto';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

interface Body {
  data?: { collection?: { id: string; name: string } };
  error?: string;
}

describe('Idempotency-Key on the two creates', () => {
  let h: Harness;
  const alice = account();
  const bob = account();
  let ws = '';

  beforeAll(async () => {
    h = await startHarness();
    const res = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Team', ownerAccountId: alice.accountId });
    ws = (res.body as { data: { workspace: { id: string } } }).data.workspace.id;
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const createMine = (key: string | undefined, body: object, who = alice) => {
    const call = h.call(who, 'post', '/api/v1/me/collections');
    return (key === undefined ? call : call.set('Idempotency-Key', key)).send(body);
  };
  const countMine = async (accountId: string) =>
    (
      await h.rows<{ n: string }>('SELECT count(*) AS n FROM collections.collections WHERE owner_account_id = $1', [
        accountId,
      ])
    )[0]!.n;

  it('replays the first answer for the same key and body, creating once', async () => {
    const who = account();
    const first = await createMine('retry-1', { name: 'Daily', description: 'tools' }, who);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // same body, other key order: still the same request
    const again = await createMine('retry-1', { description: 'tools', name: 'Daily' }, who);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countMine(who.accountId)).toBe('1');
  });

  it('refuses the same key with another body (409, localised)', async () => {
    await createMine('retry-2', { name: 'One' }).expect(201);
    const other = await createMine('retry-2', { name: 'Two' }).set('Accept-Language', 'fr');
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: 'Idempotency-Key a déjà été utilisée avec un autre corps de requête' });
  });

  it('scopes keys by account and by route', async () => {
    const mine = await createMine('shared-key', { name: 'A' }).expect(201);
    const bobs = await createMine('shared-key', { name: 'A' }, bob).expect(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
    expect((bobs.body as Body).data!.collection!.id).not.toBe((mine.body as Body).data!.collection!.id);
    const team = await h
      .call(alice, 'post', `/api/v1/workspaces/${ws}/collections`)
      .set('Idempotency-Key', 'shared-key')
      .send({ name: 'A' });
    expect(team.status).toBe(201);
    expect(team.headers['idempotent-replayed']).toBeUndefined();
    const teamAgain = await h
      .call(alice, 'post', `/api/v1/workspaces/${ws}/collections`)
      .set('Idempotency-Key', 'shared-key')
      .send({ name: 'A' });
    expect(teamAgain.headers['idempotent-replayed']).toBe('true');
    expect(teamAgain.body).toEqual(team.body);
  });

  it('rejects a key that is empty, too long or not visible ASCII with 400', async () => {
    for (const key of ['', 'x'.repeat(256), 'has space', 'café']) {
      const res = await createMine(key, { name: 'Bad key' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });
    }
    expect((await createMine('x'.repeat(255), { name: 'Longest key' })).status).toBe(201);
  });

  it('does not remember an error: a retry after a failed create runs again', async () => {
    const stranger = account();
    const base = `/api/v1/workspaces/${ws}/collections`;
    const denied = await h.call(stranger, 'post', base).set('Idempotency-Key', 'after-error').send({ name: 'X' });
    expect(denied.status).toBe(403);
    await h
      .call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${stranger.accountId}`)
      .send({ role: 'member' })
      .expect(200);
    const allowed = await h.call(stranger, 'post', base).set('Idempotency-Key', 'after-error').send({ name: 'X' });
    expect(allowed.status).toBe(201);
    expect(allowed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers concurrent duplicates with one creation: the second waits and replays', async () => {
    const who = account();
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => createMine(key, { name: 'Race' }, who)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(new Set(answers.map((a) => (a.body as Body).data!.collection!.id)).size).toBe(1);
    expect(await countMine(who.accountId)).toBe('1');
  });

  it('forgets a key after 24 hours (purged lazily on the next use)', async () => {
    const who = account();
    await createMine('old-key', { name: 'Then' }, who).expect(201);
    await h.rows(
      `UPDATE collections.idempotency_keys SET created_at = now() - interval '25 hours' WHERE account_id = $1`,
      [who.accountId],
    );
    const later = await createMine('old-key', { name: 'Now' }, who);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await countMine(who.accountId)).toBe('2');
  });

  it('creates as before without the header', async () => {
    await createMine(undefined, { name: 'Plain' }).expect(201);
  });
});
