/**
 * Writes that must not lose another's update or slip past a rule: If-Match
 * on collection PATCH and DELETE, names as they read (NFC, no bidi
 * controls), and an Idempotency-Key replay that checks access again.
 */
import { ADMIN, account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

describe('conditional and checked writes on collections', () => {
  let h: Harness;
  let ws = '';
  const owner = account();
  const member = account();

  beforeAll(async () => {
    h = await startHarness();
    await putSkill(h, 'alpha');
    await putSkill(h, 'beta');
    const res = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Team', ownerAccountId: owner.accountId });
    ws = res.body.data.workspace.id as string;
    await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${member.accountId}`).send({ role: 'member' });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  async function createMine(name = 'Mine'): Promise<string> {
    const res = await h.call(owner, 'post', '/api/v1/me/collections').send({ name });
    expect(res.status).toBe(201);
    return res.body.data.collection.id as string;
  }

  describe('If-Match', () => {
    it('tags a collection read, applies a PATCH carrying that tag and answers the new one', async () => {
      const path = `/api/v1/me/collections/${await createMine()}`;
      const read = await h.call(owner, 'get', path);
      const etag = read.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      const patched = await h.call(owner, 'patch', path).set('If-Match', etag).send({ skillSlug: 'alpha' });
      expect(patched.status).toBe(200);
      expect(patched.headers.etag).not.toBe(etag);
      expect((await h.call(owner, 'get', path)).headers.etag).toBe(patched.headers.etag);
    });

    it('refuses a PATCH or DELETE with a stale tag with 412, localised, and changes nothing', async () => {
      const path = `/api/v1/me/collections/${await createMine()}`;
      const stale = (await h.call(owner, 'get', path)).headers.etag as string;
      // someone else's write in between
      expect((await h.call(owner, 'patch', path).send({ name: 'Renamed meanwhile' })).status).toBe(200);
      const lost = await h.call(owner, 'patch', path).set('If-Match', stale).send({ name: 'Mine, overwritten' });
      expect(lost.status).toBe(412);
      expect(lost.body).toEqual({
        error: 'The collection changed since you read it: read it again, then retry with its new ETag in If-Match',
      });
      const fr = await h.call(owner, 'delete', path).set('If-Match', stale).set('Accept-Language', 'fr');
      expect(fr.status).toBe(412);
      expect(fr.body.error).toMatch(/^La collection a changé depuis votre lecture/);
      const after = await h.call(owner, 'get', path);
      expect(after.body.data.collection.name).toBe('Renamed meanwhile');
    });

    it('matches strongly: a list holding the tag and * pass, the W/ form and garbage do not', async () => {
      const path = `/api/v1/me/collections/${await createMine()}`;
      const etag = (await h.call(owner, 'get', path)).headers.etag as string;
      expect((await h.call(owner, 'patch', path).set('If-Match', `W/${etag}`).send({ name: 'a' })).status).toBe(412);
      expect((await h.call(owner, 'patch', path).set('If-Match', 'not-a-tag').send({ name: 'a' })).status).toBe(412);
      const listed = await h.call(owner, 'patch', path).set('If-Match', `"other", ${etag}`).send({ name: 'b' });
      expect(listed.status).toBe(200);
      expect((await h.call(owner, 'patch', path).set('If-Match', '*').send({ name: 'c' })).status).toBe(200);
      expect((await h.call(owner, 'delete', path).set('If-Match', listed.headers.etag as string)).status).toBe(412);
      const current = (await h.call(owner, 'get', path)).headers.etag as string;
      expect((await h.call(owner, 'delete', path).set('If-Match', current)).status).toBe(200);
    });

    it('checks access before the precondition: another account gets 404 whatever its If-Match', async () => {
      const path = `/api/v1/me/collections/${await createMine()}`;
      const etag = (await h.call(owner, 'get', path)).headers.etag as string;
      expect((await h.call(account(), 'patch', path).set('If-Match', '"stale"').send({ name: 'x' })).status).toBe(404);
      expect((await h.call(account(), 'delete', path).set('If-Match', etag)).status).toBe(404);
    });

    it('does the same on team collections', async () => {
      const created = await h.call(member, 'post', `/api/v1/workspaces/${ws}/collections`).send({ name: 'Shared' });
      const path = `/api/v1/workspaces/${ws}/collections/${created.body.data.collection.id}`;
      const etag = (await h.call(member, 'get', path)).headers.etag as string;
      expect((await h.call(owner, 'patch', path).send({ skillSlug: 'beta' })).status).toBe(200);
      expect((await h.call(member, 'patch', path).set('If-Match', etag).send({ removeSkillSlug: 'beta' })).status).toBe(
        412,
      );
      expect((await h.call(member, 'delete', path).set('If-Match', etag)).status).toBe(412);
      const fresh = (await h.call(member, 'get', path)).headers.etag as string;
      expect((await h.call(member, 'delete', path).set('If-Match', fresh)).status).toBe(200);
    });
  });

  describe('names', () => {
    it('stores names and descriptions NFC-normalised', async () => {
      const decomposed = 'Cafe\u0301 cre\u0300me';
      const res = await h
        .call(owner, 'post', '/api/v1/me/collections')
        .send({ name: decomposed, description: decomposed });
      expect(res.status).toBe(201);
      expect(res.body.data.collection.name).toBe('Café crème');
      expect(res.body.data.collection.description).toBe('Café crème');
      const patched = await h
        .call(owner, 'patch', `/api/v1/me/collections/${res.body.data.collection.id}`)
        .send({ name: 'Ame\u0301lie' });
      expect(patched.body.data.collection.name).toBe('Amélie');
    });

    it.each([
      ['RIGHT-TO-LEFT OVERRIDE', '\u202E'],
      ['LEFT-TO-RIGHT ISOLATE', '\u2066'],
      ['RIGHT-TO-LEFT MARK', '\u200F'],
      ['ARABIC LETTER MARK', '\u061C'],
    ])('refuses a name or description holding %s with 400 naming the field', async (_name, mark) => {
      const name = await h.call(owner, 'post', '/api/v1/me/collections').send({ name: `invoice${mark}fdp.exe` });
      expect(name.status).toBe(400);
      expect(name.body).toEqual({ error: '"name" must not contain bidirectional control characters' });
      const team = await h
        .call(member, 'post', `/api/v1/workspaces/${ws}/collections`)
        .set('Accept-Language', 'fr')
        .send({ name: 'ok', description: `a${mark}b` });
      expect(team.status).toBe(400);
      expect(team.body).toEqual({
        error: '« description » ne doit pas contenir de caractères de contrôle bidirectionnel',
      });
      const workspace = await h
        .call(ADMIN, 'post', '/admin/v1/workspaces')
        .send({ name: `W${mark}`, ownerAccountId: owner.accountId });
      expect(workspace.status).toBe(400);
    });
  });

  describe('Idempotency-Key replay', () => {
    it('checks workspace access again before replaying a stored answer', async () => {
      const writer = account();
      await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${writer.accountId}`).send({ role: 'member' });
      const create = () =>
        h
          .call(writer, 'post', `/api/v1/workspaces/${ws}/collections`)
          .set('Idempotency-Key', 'replay-1')
          .send({ name: 'Kept' });
      expect((await create()).status).toBe(201);
      expect((await create()).headers['idempotent-replayed']).toBe('true');
      await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${writer.accountId}`).send({ role: 'viewer' });
      const replay = await create();
      expect(replay.status).toBe(403);
      expect(replay.body).toEqual({ error: 'Your workspace role does not allow this action' });
    });
  });
});
