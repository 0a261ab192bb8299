/**
 * Pinned entries (docs/governance.md "Pinned entries"): a team entry pins
 * the latest release the policy allows or the version asked for, the digest
 * comes from the catalog, and a personal entry follows the item unless a
 * version is given.
 */
import { ADMIN, account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { collectionsOf, createTeam, entryOf, pinOf, putPolicy, teamCollection, type Team } from '../support/governance';
import { published, scan } from '../support/releases';

describe('pinned entries', () => {
  let h: Harness;
  let t: Team;
  beforeAll(async () => {
    h = await startHarness();
    t = await createTeam(h);
    await putSkill(h, 'pdf');
    await published(h, 'pdf', '1.0.0', '1.2.0', '2.0.0-rc.1');
    await putSkill(h, 'bare');
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const patch = (id: string, body: object, lang = 'en') =>
    h
      .call(t.member, 'patch', `${collectionsOf(t)}/${id}`)
      .set('Accept-Language', lang)
      .send(body);

  it("pins the latest stable release when a slug is added alone, with the catalog's digest", async () => {
    const id = await teamCollection(h, t, 'pdf');
    expect((await entryOf(h, t, id, 'pdf'))?.pin).toEqual(pinOf('1.2.0'));
    const rows = await h.rows(
      'SELECT pinned_version, pinned_digest, pinned_verdict FROM collections.collection_entries WHERE collection_id = $1',
      [id],
    );
    expect(rows).toEqual([
      { pinned_version: '1.2.0', pinned_digest: pinOf('1.2.0').digest, pinned_verdict: 'unscanned' },
    ]);
  });

  it('pins the version asked for, and moves the pin of an entry already there', async () => {
    const id = await teamCollection(h, t);
    expect((await patch(id, { skillSlug: 'pdf', version: '1.0.0' })).status).toBe(200);
    expect((await entryOf(h, t, id, 'pdf'))?.pin).toEqual(pinOf('1.0.0'));
    // adding the slug again alone leaves the pin where it is
    expect((await patch(id, { skillSlug: 'pdf' })).status).toBe(200);
    expect((await entryOf(h, t, id, 'pdf'))?.pin).toEqual(pinOf('1.0.0'));
    const moved = await patch(id, { skillSlug: 'pdf', version: '2.0.0-rc.1' });
    expect(moved.status).toBe(200);
    expect(moved.body.data.collection.skills).toHaveLength(1);
    expect(moved.body.data.collection.skills[0].pin).toEqual(pinOf('2.0.0-rc.1'));
  });

  it('answers 404 for a version that does not exist and 400 for a digest sent by the caller, changing nothing', async () => {
    const id = await teamCollection(h, t, 'pdf');
    const missing = await patch(id, { skillSlug: 'pdf', version: '9.9.9' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Release 9.9.9 of "pdf" not found' });
    const forged = await patch(id, { skillSlug: 'pdf', version: '1.0.0', digest: 'sha256:00' });
    expect(forged.status).toBe(400);
    expect((await patch(id, { version: '1.0.0' })).status).toBe(400);
    expect((await entryOf(h, t, id, 'pdf'))?.pin).toEqual(pinOf('1.2.0'));
  });

  it('holds an item without any release unpinned, and refuses one whose releases are all yanked with 422', async () => {
    const id = await teamCollection(h, t, 'bare');
    expect((await entryOf(h, t, id, 'bare'))?.pin).toBeNull();
    await putSkill(h, 'gone');
    await published(h, 'gone', '1.0.0');
    await h.call(ADMIN, 'post', '/admin/v1/skills/gone/versions/1.0.0:yank').send({ reason: 'broken' });
    const res = await patch(id, { skillSlug: 'gone' }, 'fr');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: '« gone » ne peut pas être épinglée : toutes ses versions sont retirées' });
    expect(await entryOf(h, t, id, 'gone')).toBeUndefined();
  });

  it('skips a yanked latest release when pinning by slug, and keeps a yanked or blocked pin, shown as such', async () => {
    await putSkill(h, 'shaky');
    await published(h, 'shaky', '1.0.0', '1.1.0');
    const id = await teamCollection(h, t, 'shaky');
    await h.call(ADMIN, 'post', '/admin/v1/skills/shaky/versions/1.1.0:yank').send({ reason: 'leaks tokens' });
    expect((await entryOf(h, t, id, 'shaky'))?.pin).toEqual(pinOf('1.1.0', 'unscanned', { yanked: true }));
    const other = await teamCollection(h, t, 'shaky');
    expect((await entryOf(h, t, other, 'shaky'))?.pin).toEqual(pinOf('1.0.0'));
    expect((await scan(h, 'shaky', '1.0.0', 'acme', 'malicious')).status).toBe(201);
    const blocked = await entryOf(h, t, other, 'shaky');
    expect(blocked).toMatchObject({ blocked: true, pin: pinOf('1.0.0', 'malicious', { pinnedVerdict: 'unscanned' }) });
  });

  it('keeps personal entries unpinned by slug, and pins them with a version (no policy applies)', async () => {
    const me = account();
    const created = await h.call(me, 'post', '/api/v1/me/collections').send({ name: 'Mine' });
    const id = created.body.data.collection.id as string;
    const url = `/api/v1/me/collections/${id}`;
    const added = await h.call(me, 'patch', url).send({ skillSlug: 'pdf' });
    expect(added.body.data.collection.skills[0].pin).toBeNull();
    expect(added.body.data.collection.skills[0]).not.toHaveProperty('compliance');
    const pinned = await h.call(me, 'patch', url).send({ skillSlug: 'pdf', version: '1.0.0' });
    expect(pinned.body.data.collection.skills[0].pin).toEqual(pinOf('1.0.0'));
    expect((await h.call(me, 'patch', url).send({ skillSlug: 'pdf', version: '3.0.0' })).status).toBe(404);
  });

  it('never adds or pins a malicious release: not in a personal collection (409), not in a team one (422), not by a pin update', async () => {
    await putSkill(h, 'mixed');
    await published(h, 'mixed', '1.0.0', '1.1.0', '1.2.0');
    expect((await scan(h, 'mixed', '1.1.0', 'acme', 'malicious')).status).toBe(201);
    const me = account();
    const url = `/api/v1/me/collections/${(await h.call(me, 'post', '/api/v1/me/collections').send({ name: 'Mine' })).body.data.collection.id as string}`;
    const refused = await h
      .call(me, 'patch', url)
      .set('Accept-Language', 'en')
      .send({ skillSlug: 'mixed', version: '1.1.0', name: 'Renamed' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Release 1.1.0 of "mixed" is malicious and cannot be added or pinned' });
    const fr = await h
      .call(me, 'patch', url)
      .set('Accept-Language', 'fr')
      .send({ skillSlug: 'mixed', version: '1.1.0' });
    expect(fr.body).toEqual({
      error: 'La version 1.1.0 de « mixed » est malveillante et ne peut être ni ajoutée ni épinglée',
    });
    // nothing of the refused body applied; a pin already there does not move to it either
    expect((await h.call(me, 'get', url)).body.data.collection).toMatchObject({ name: 'Mine', skills: [] });
    expect((await h.call(me, 'patch', url).send({ skillSlug: 'mixed', version: '1.0.0' })).status).toBe(200);
    expect((await h.call(me, 'patch', url).send({ skillSlug: 'mixed', version: '1.1.0' })).status).toBe(409);
    expect((await h.call(me, 'get', url)).body.data.collection.skills[0].pin).toEqual(pinOf('1.0.0'));

    const team = await teamCollection(h, t, 'mixed');
    const refusedInTeam = await patch(team, { skillSlug: 'mixed', version: '1.1.0' });
    expect(refusedInTeam.status).toBe(422);
    expect(refusedInTeam.body).toEqual({
      error:
        'The workspace policy refuses "mixed": its verdict malicious is worse than the minimum suspicious (rule minimumVerdict)',
    });
    expect((await entryOf(h, t, team, 'mixed'))?.pin).toEqual(pinOf('1.2.0'));
    // the newest release falls below a stricter policy: the update passes over the malicious one to the clean one
    const strict = await createTeam(h, 'Strict');
    const pinned = await teamCollection(h, strict, 'mixed');
    expect((await scan(h, 'mixed', '1.2.0', 'acme', 'suspicious')).status).toBe(201);
    expect((await scan(h, 'mixed', '1.0.0', 'acme', 'clean')).status).toBe(201);
    await putPolicy(h, strict, { minimumVerdict: 'unscanned' });
    const update = await h.call(strict.member, 'post', `${collectionsOf(strict)}/${pinned}/pins:update`).send({});
    expect(update.status).toBe(200);
    expect(update.body.data.changes).toEqual([
      {
        slug: 'mixed',
        from: { version: '1.2.0', digest: pinOf('1.2.0').digest },
        to: { version: '1.0.0', digest: pinOf('1.0.0').digest },
      },
    ]);
    expect(update.body.data.collection.skills).toEqual([
      expect.objectContaining({ slug: 'mixed', pin: pinOf('1.0.0', 'clean', { pinnedVerdict: 'clean' }) }),
    ]);
  });
});
