import { NO_DETAILS, NO_TRUST } from '@skills/common';
import { ConflictError, NotFoundError } from '@skills/common';
import { applyCollectionPatch } from '../../src/domain/collection-patch';
import { MAX_ENTRIES_PER_COLLECTION } from '../../src/domain/limits';
import type { CollectionRecord, ItemRecord } from '../../src/domain/model';
import type { CollectionRepository, ItemRepository, Repositories } from '../../src/domain/ports';

const ALICE = '0b8f6f5e-7a55-4c1e-9f3e-000000000001';
const BOB = '0b8f6f5e-7a55-4c1e-9f3e-000000000002';

function item(id: string, fields: Partial<ItemRecord>): ItemRecord {
  return {
    id,
    slug: null,
    name: id,
    description: '',
    type: 'skill',
    category: null,
    tags: [],
    status: 'active',
    visibility: 'public',
    ownerAccountId: null,
    version: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
    details: NO_DETAILS,
    trust: NO_TRUST,
    ...fields,
  };
}

const items = [
  item('11111111-1111-4111-8111-111111111111', { slug: 'alpha' }),
  item('22222222-2222-4222-8222-222222222222', { slug: 'beta' }),
  item('33333333-3333-4333-8333-333333333333', { slug: 'archived-one', status: 'archived' }),
  item('44444444-4444-4444-8444-444444444444', { visibility: 'private', ownerAccountId: ALICE }),
  item('55555555-5555-4555-8555-555555555555', { visibility: 'private', ownerAccountId: BOB }),
];

/** Just enough of the repositories for the patch rules, recording the writes in order. */
function fakeRepos(initialEntries: string[] = []) {
  const entries = new Set(initialEntries);
  const writes: string[] = [];
  const itemRepo: Pick<ItemRepository, 'findPublicBySlug' | 'findById'> = {
    findPublicBySlug: async (slug) => items.find((i) => i.slug === slug) ?? null,
    findById: async (id) => items.find((i) => i.id === id) ?? null,
  };
  const collections: Pick<CollectionRepository, 'addEntry' | 'hasEntry' | 'removeEntry' | 'countEntries' | 'update'> = {
    hasEntry: async (_c, itemId) => entries.has(itemId),
    // like the SQL's ON CONFLICT DO NOTHING: a present item is left as it is, and the answer says so
    addEntry: async (_c, itemId) => {
      if (entries.has(itemId)) return false;
      writes.push(`add ${itemId.slice(0, 1)}`);
      entries.add(itemId);
      return true;
    },
    removeEntry: async (_c, itemId) => {
      writes.push(`remove ${itemId.slice(0, 1)}`);
      entries.delete(itemId);
    },
    countEntries: async () => entries.size,
    update: async (_id, fields) => {
      writes.push(`update ${JSON.stringify(fields)}`);
      return { ...collection, ...fields, updatedAt: UPDATED_AT, skills: [], skillCount: entries.size };
    },
  };
  // The rules use only the members above; the cast states that on purpose.
  const repos = { items: itemRepo, collections } as unknown as Repositories;
  return { repos, entries, writes };
}

const UPDATED_AT = '2026-02-01T00:00:00.000Z';
const collection: CollectionRecord = {
  id: 'c0000000-0000-4000-8000-000000000000',
  ownerAccountId: ALICE,
  workspaceId: null,
  createdBy: ALICE,
  name: 'C',
  description: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('applyCollectionPatch', () => {
  it('removes, then adds, then renames', async () => {
    const { repos, writes } = fakeRepos([items[0]!.id]);
    const updated = await applyCollectionPatch(
      repos,
      collection,
      { name: 'New', skillSlug: 'beta', removeSkillSlug: 'alpha' },
      ALICE,
      null,
    );
    expect(writes).toEqual(['remove 1', 'add 2', 'update {"name":"New"}']);
    expect(updated).toMatchObject({ ...collection, name: 'New', updatedAt: UPDATED_AT, skillCount: 1 });
  });

  it('refuses an unknown or inactive slug naming it, before any rename', async () => {
    const { repos, writes } = fakeRepos();
    for (const slug of ['nope', 'archived-one']) {
      const err = await applyCollectionPatch(repos, collection, { skillSlug: slug, name: 'X' }, ALICE, null).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err).toMatchObject({ messageKey: 'skill.notFound', params: { slug } });
    }
    expect(writes.some((w) => w.startsWith('update'))).toBe(false);
  });

  it('adds only the owner\'s private skills; another account\'s is "not found"', async () => {
    const { repos, entries } = fakeRepos();
    await applyCollectionPatch(repos, collection, { privateSkillId: items[3]!.id }, ALICE, null);
    expect(entries.has(items[3]!.id)).toBe(true);
    await expect(
      applyCollectionPatch(repos, collection, { privateSkillId: items[4]!.id }, ALICE, null),
    ).rejects.toMatchObject({
      messageKey: 'privateSkill.notFound',
      params: { id: items[4]!.id },
    });
  });

  it('never adds a private skill to a team collection', async () => {
    const { repos } = fakeRepos();
    await expect(
      applyCollectionPatch(repos, collection, { privateSkillId: items[3]!.id }, null, null),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("ignores removing what is not there and a private id that is not the caller's", async () => {
    const { repos, writes } = fakeRepos([items[4]!.id]);
    await applyCollectionPatch(
      repos,
      collection,
      { removeSkillSlug: 'unknown', removePrivateSkillId: items[4]!.id },
      ALICE,
      null,
    );
    expect(writes).toEqual(['update {}']);
  });

  it('refuses an addition past the cap with 409, but not a re-add of a present skill', async () => {
    const full = Array.from({ length: MAX_ENTRIES_PER_COLLECTION }, (_, i) => `x${i}`);
    const { repos } = fakeRepos(full);
    await expect(applyCollectionPatch(repos, collection, { skillSlug: 'alpha' }, ALICE, null)).rejects.toBeInstanceOf(
      ConflictError,
    );
    const atCap = fakeRepos([...full.slice(1), items[0]!.id]);
    await expect(
      applyCollectionPatch(atCap.repos, collection, { skillSlug: 'alpha' }, ALICE, null),
    ).resolves.toMatchObject({ id: collection.id });
  });
});
