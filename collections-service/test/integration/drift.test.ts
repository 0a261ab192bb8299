/**
 * Drift of pinned entries and pins:update (docs/governance.md "Drift and
 * updating pins"): each cause shown, a dry run that changes nothing, a real
 * run that moves pins in one transaction and records collection.changed.
 */
import { ADMIN, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { collectionsOf, createTeam, entryOf, pinOf, putPolicy, teamCollection, type Team } from '../support/governance';
import { published, scan } from '../support/releases';

describe('drift and pins:update', () => {
  let h: Harness;
  let t: Team;
  beforeAll(async () => {
    h = await startHarness();
    t = await createTeam(h);
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const update = (id: string, body: object, who = t.member) =>
    h.call(who, 'post', `${collectionsOf(t)}/${id}/pins:update`).send(body);
  const events = async (id: string) =>
    (
      await h.rows<{ data: unknown }>(
        `SELECT data FROM collections.workspace_events WHERE type = 'collection.changed' ORDER BY seq`,
      )
    )
      .map(
        (r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { collectionId: string; change: string },
      )
      .filter((d) => d.collectionId === id)
      .map((d) => d.change);

  it('shows each cause: newer-release, yanked, verdict-changed, blocked, removed', async () => {
    for (const slug of ['newer', 'yanky', 'flips', 'bad', 'leaving']) {
      await putSkill(h, slug);
      await published(h, slug, '1.0.0');
    }
    const id = await teamCollection(h, t, 'newer', 'yanky', 'flips', 'bad', 'leaving');
    const before = await h.call(t.member, 'get', `${collectionsOf(t)}/${id}`);
    expect(before.body.data.collection.drift).toEqual({ count: 0 });

    await published(h, 'newer', '1.1.0', '2.0.0-beta.1');
    await h.call(ADMIN, 'post', '/admin/v1/skills/yanky/versions/1.0.0:yank').send({ reason: 'broken' });
    await scan(h, 'flips', '1.0.0', 'acme', 'suspicious');
    await scan(h, 'bad', '1.0.0', 'acme', 'malicious');
    await h.call(ADMIN, 'delete', '/admin/v1/skills/leaving');

    expect((await entryOf(h, t, id, 'newer'))?.drift).toEqual([{ kind: 'newer-release', version: '1.1.0' }]);
    expect((await entryOf(h, t, id, 'yanky'))?.drift).toEqual([{ kind: 'yanked' }]);
    expect((await entryOf(h, t, id, 'flips'))?.drift).toEqual([
      { kind: 'verdict-changed', from: 'unscanned', to: 'suspicious' },
    ]);
    expect((await entryOf(h, t, id, 'bad'))?.drift).toEqual([
      { kind: 'verdict-changed', from: 'unscanned', to: 'malicious' },
      { kind: 'blocked' },
    ]);
    expect((await entryOf(h, t, id, 'leaving'))?.drift).toEqual([{ kind: 'removed' }]);
    const after = await h.call(t.member, 'get', `${collectionsOf(t)}/${id}`);
    expect(after.body.data.collection.drift).toEqual({ count: 5 });
  });

  it('counts only releases the policy allows as newer', async () => {
    await putSkill(h, 'guarded');
    await published(h, 'guarded', '1.0.0');
    const id = await teamCollection(h, t, 'guarded');
    await published(h, 'guarded', '1.1.0');
    await scan(h, 'guarded', '1.1.0', 'acme', 'suspicious');
    expect((await entryOf(h, t, id, 'guarded'))?.drift).toEqual([{ kind: 'newer-release', version: '1.1.0' }]);
    await putPolicy(h, t, { minimumVerdict: 'unscanned' });
    expect((await entryOf(h, t, id, 'guarded'))?.drift).toEqual([]);
    await putPolicy(h, t, {});
  });

  it('previews with a dry run that changes nothing, then moves pins and acknowledges verdicts in one run', async () => {
    for (const slug of ['mover', 'scanned', 'blocked-one']) {
      await putSkill(h, slug);
      await published(h, slug, '1.0.0');
    }
    const id = await teamCollection(h, t, 'mover', 'scanned', 'blocked-one');
    await published(h, 'mover', '1.1.0');
    await scan(h, 'scanned', '1.0.0', 'acme', 'clean');
    await scan(h, 'blocked-one', '1.0.0', 'acme', 'malicious');
    const url = `${collectionsOf(t)}/${id}`;
    const stored = () =>
      h.rows(
        'SELECT item_id, pinned_version, pinned_digest, pinned_verdict FROM collections.collection_entries WHERE collection_id = $1 ORDER BY id',
        [id],
      );
    const rowsBefore = await stored();
    const updatedAt = (await h.call(t.member, 'get', url)).body.data.collection.updatedAt;
    const eventsBefore = await events(id);

    const expected = {
      changes: [
        {
          slug: 'mover',
          from: { version: '1.0.0', digest: pinOf('1.0.0').digest },
          to: { version: '1.1.0', digest: pinOf('1.1.0').digest },
        },
        {
          slug: 'scanned',
          from: { version: '1.0.0', digest: pinOf('1.0.0').digest },
          to: { version: '1.0.0', digest: pinOf('1.0.0').digest },
        },
      ],
      skipped: [{ slug: 'blocked-one', reason: 'blocked' }],
    };
    const dry = await update(id, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, ...expected });
    expect(dry.body.data.collection.drift).toEqual({ count: 3 });
    expect(await stored()).toEqual(rowsBefore);
    expect((await h.call(t.member, 'get', url)).body.data.collection.updatedAt).toBe(updatedAt);
    expect(await events(id)).toEqual(eventsBefore);

    const real = await update(id, {});
    expect(real.body.data).toMatchObject({ dryRun: false, ...expected });
    expect(real.body.data.collection.drift).toEqual({ count: 1 });
    expect((await entryOf(h, t, id, 'mover'))?.pin).toEqual(pinOf('1.1.0'));
    expect((await entryOf(h, t, id, 'scanned'))?.pin).toEqual(pinOf('1.0.0', 'clean'));
    expect(await events(id)).toEqual([...eventsBefore, 'pins-updated']);
    // nothing left to move: a second run changes nothing
    expect((await update(id, {})).body.data.changes).toEqual([]);
  });

  it('updates only the slugs named, reports unknown ones, and refuses viewers, bad bodies and other workspaces', async () => {
    await putSkill(h, 'one');
    await putSkill(h, 'two');
    await published(h, 'one', '1.0.0');
    await published(h, 'two', '1.0.0');
    const id = await teamCollection(h, t, 'one', 'two');
    await published(h, 'one', '1.1.0');
    await published(h, 'two', '1.1.0');
    const res = await update(id, { slugs: ['one', 'absent'] });
    expect(res.body.data.changes.map((c: { slug: string }) => c.slug)).toEqual(['one']);
    expect(res.body.data.skipped).toEqual([{ slug: 'absent', reason: 'not-in-collection' }]);
    expect((await entryOf(h, t, id, 'two'))?.pin).toEqual(pinOf('1.0.0'));
    expect((await update(id, { dryRun: true }, t.viewer)).status).toBe(403);
    expect((await update(id, { dryRun: 'yes' })).status).toBe(400);
    expect((await update(id, { everything: true })).status).toBe(400);
    const other = await createTeam(h, 'Other');
    const foreign = await h
      .call(other.member, 'post', `/api/v1/workspaces/${other.ws}/collections/${id}/pins:update`)
      .send({});
    expect(foreign.status).toBe(404);
    expect((await entryOf(h, t, id, 'two'))?.pin).toEqual(pinOf('1.0.0'));
  });
});
