// @store-specific a team collection write and its event in one transaction
/**
 * The workspace event log (docs/governance.md "Signed webhooks"): every
 * team collection write records collection.changed in its own transaction,
 * so a change and its event commit or roll back together.
 */
import type { CollectionsStore, Repositories } from '../../src/domain/ports';
import { PolicyService } from '../../src/domain/policy.service';
import { TeamCollectionService } from '../../src/domain/team-collection.service';
import { SequelizeStore } from '../../src/store/repositories';
import { collectionsOf, createTeam, type Team } from '../support/governance';
import { putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { silentLogger } from '@skills/common/testing';

/** The real store, except that recording a workspace event fails. */
function storeWithBrokenEventLog(store: CollectionsStore): CollectionsStore {
  const broken = (repos: Repositories): Repositories => ({
    ...repos,
    workspaceEvents: {
      record: async () => {
        throw new Error('event log unavailable');
      },
    },
  });
  return {
    ...store,
    repos: broken(store.repos),
    transaction: (work) => store.transaction((repos) => work(broken(repos))),
    wroteInBulk: (n) => store.wroteInBulk(n),
    ping: () => store.ping(),
  };
}

interface EventRow {
  type: string;
  workspace_id: string;
  data: unknown;
}

describe('workspace events of team collections', () => {
  let h: Harness;
  let t: Team;
  beforeAll(async () => {
    h = await startHarness();
    t = await createTeam(h);
    await putSkill(h, 'alpha');
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const events = async () =>
    (await h.rows<EventRow>('SELECT type, workspace_id, data FROM collections.workspace_events ORDER BY seq')).map(
      (r) => ({
        type: r.type,
        workspaceId: r.workspace_id,
        data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
      }),
    );

  it('records created, updated and deleted with the collection, and nothing for a refused write', async () => {
    const created = await h.call(t.member, 'post', collectionsOf(t)).send({ name: 'Evented' });
    const id = created.body.data.collection.id as string;
    await h.call(t.member, 'patch', `${collectionsOf(t)}/${id}`).send({ skillSlug: 'alpha', name: 'Renamed' });
    await h.call(t.member, 'patch', `${collectionsOf(t)}/${id}`).send({ skillSlug: 'unknown' });
    await h.call(t.viewer, 'patch', `${collectionsOf(t)}/${id}`).send({ name: 'x' });
    await h.call(t.owner, 'delete', `${collectionsOf(t)}/${id}`);
    const data = (name: string, change: string) => ({
      type: 'collection.changed',
      workspaceId: t.ws,
      data: { collectionId: id, name, change },
    });
    expect(await events()).toEqual([
      data('Evented', 'created'),
      data('Renamed', 'updated'),
      data('Renamed', 'deleted'),
    ]);
    const ids = await h.rows<{ id: string }>('SELECT id FROM collections.workspace_events');
    expect(new Set(ids.map((r) => r.id)).size).toBe(3);
  });

  it('rolls the change back when its event cannot be recorded', async () => {
    const store = storeWithBrokenEventLog(new SequelizeStore(h.sequelize, silentLogger('events-test')));
    const sut = new TeamCollectionService(store);
    const kept = await h.call(t.member, 'post', collectionsOf(t)).send({ name: 'Kept' });
    const id = kept.body.data.collection.id as string;
    const before = await events();
    await expect(sut.create(t.member.accountId, t.ws, { name: 'Never' })).rejects.toThrow('event log unavailable');
    await expect(sut.update(t.member.accountId, t.ws, id, { name: 'Never', skillSlug: 'alpha' })).rejects.toThrow(
      'event log unavailable',
    );
    await expect(sut.delete(t.owner.accountId, t.ws, id)).rejects.toThrow('event log unavailable');
    await expect(
      new PolicyService(store).put(t.owner.accountId, t.ws, {
        minimumVerdict: 'clean',
        verifiedPublishersOnly: true,
        allowedPublishers: null,
        allowedLicenses: null,
        allowedTypes: null,
        deniedSlugs: [],
      }),
    ).rejects.toThrow('event log unavailable');
    const after = await h.call(t.member, 'get', collectionsOf(t));
    expect(
      after.body.data.collections.map((c: { name: string; skillCount: number }) => [c.name, c.skillCount]),
    ).toEqual([['Kept', 0]]);
    expect((await h.call(t.member, 'get', `/api/v1/workspaces/${t.ws}/policy`)).body.data.updatedAt).toBeNull();
    expect(await events()).toEqual(before);
  });
});
