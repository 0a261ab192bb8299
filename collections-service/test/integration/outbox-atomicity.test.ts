// @store-specific a write and its outbox row in one transaction
/**
 * The outbox row of an item change must commit or roll back with the change
 * itself: checked on the stored transaction ids, and by making the outbox
 * write fail after the item was written.
 */
import { CatalogAdminService } from '../../src/domain/catalog-admin.service';
import { SequelizeStore } from '../../src/store/repositories';
import { storeWithBrokenOutbox } from '../support/broken-outbox';
import { ADMIN, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { silentLogger } from '@skills/common/testing';

const skill = {
  name: 'Atomic',
  description: '',
  type: 'skill' as const,
  category: 'c',
  tags: [],
  status: 'active' as const,
};

describe("outbox writes share the item change's transaction", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('stores the outbox row with the transaction id that wrote the item', async () => {
    const res = await h.call(ADMIN, 'put', '/admin/v1/skills/same-tx').send(skill);
    const rows = await h.rows<{ same: boolean }>(
      `SELECT (o.txid::text::bigint % 4294967296) = i.xmin::text::bigint AS same
       FROM collections.outbox o JOIN collections.items i ON o.key = i.id::text
       WHERE i.id = $1`,
      [res.body.data.skill.id],
    );
    expect(rows).toEqual([{ same: true }]);
  });

  it('rolls back the item change when its event cannot be written', async () => {
    const sut = new CatalogAdminService(
      storeWithBrokenOutbox(new SequelizeStore(h.sequelize, silentLogger('outbox-atomicity-test'))),
    );
    await expect(sut.putSkill({ ...skill, slug: 'never-stored' })).rejects.toThrow('outbox unavailable');
    await expect(sut.importSkills([{ ...skill, slug: 'never-imported' }])).rejects.toThrow('outbox unavailable');
    await expect(sut.createPrivateSkill('6f1c1f6e-3c1a-4d8e-9a55-0a4a3c4d2b10', 'p', '')).rejects.toThrow();
    await expect(sut.deleteSkill('same-tx')).rejects.toThrow('outbox unavailable');
    const items = await h.rows<{ slug: string | null; status: string }>('SELECT slug, status FROM collections.items');
    expect(items).toEqual([{ slug: 'same-tx', status: 'active' }]);
  });

  it('writes no event when a request is rejected', async () => {
    const before = await h.rows<{ n: string }>('SELECT count(*) AS n FROM collections.outbox');
    await h.call(ADMIN, 'put', '/admin/v1/skills/rejected').send({ ...skill, type: 'widget' });
    await h.call(ADMIN, 'delete', '/admin/v1/skills/unknown-slug');
    await h.call(ADMIN, 'post', '/admin/v1/accounts/not-a-uuid/private-skills').send({ name: 'x' });
    const after = await h.rows<{ n: string }>('SELECT count(*) AS n FROM collections.outbox');
    expect(after).toEqual(before);
  });
});
