/**
 * The event contract catalog-service holds events to (common's
 * checkSkillChangeEvent) and the admin API's schemas must agree: every item
 * the admin API accepts passes the contract, and at each bound both refuse
 * one character more. Otherwise either real events would be dead-lettered,
 * or the contract would let through what the system of record never writes.
 */
import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import { checkSkillChangeEvent, type CatalogItemState } from '@skills/common';
import { privateSkillSchema, putSkillSchema } from '../../src/http/admin.schemas';

const put = {
  name: 'PDF tools',
  description: '',
  type: 'skill',
  category: 'documents',
  tags: ['pdf'],
  status: 'active',
  publisher: 'Acme',
  version: '1.0.0',
  license: 'MIT',
  repositoryUrl: 'https://e.com/r',
  homepageUrl: null,
  downloads: 1,
};

/** The event collections-service writes for an item stored from `body` (as outbox.writer.ts builds it). */
function eventFor(body: Record<string, unknown>, visibility: 'public' | 'private' = 'public') {
  const id = randomUUID();
  const item: CatalogItemState = {
    id,
    slug: visibility === 'public' ? 'pdf-tools' : null,
    name: body.name as string,
    description: (body.description as string) ?? '',
    type: (body.type as CatalogItemState['type']) ?? 'skill',
    category: visibility === 'public' ? (body.category as string) : null,
    tags: (body.tags as string[]) ?? [],
    status: (body.status as CatalogItemState['status']) ?? 'active',
    visibility,
    updatedAt: new Date().toISOString(),
    version: 1,
    details: {
      publisher: (body.publisher as string | null) ?? null,
      version: (body.version as string | null) ?? null,
      license: (body.license as string | null) ?? null,
      repositoryUrl: (body.repositoryUrl as string | null) ?? null,
      homepageUrl: (body.homepageUrl as string | null) ?? null,
      downloads: (body.downloads as number) ?? 0,
    },
  };
  return { eventId: '1', type: 'skill.upserted', itemId: id, version: 1, occurredAt: item.updatedAt, item };
}

const admits = (schema: Joi.Schema, body: object) => schema.validate(body).error === undefined;
const passes = (body: Record<string, unknown>, visibility?: 'public' | 'private') =>
  checkSkillChangeEvent(eventFor(body, visibility)).ok;

describe('the event contract and the admin API', () => {
  const bounded: Array<[string, number, (n: number) => unknown]> = [
    ['name', 200, (n) => 'n'.repeat(n)],
    ['description', 5000, (n) => 'd'.repeat(n)],
    ['category', 100, (n) => 'c'.repeat(n)],
    ['publisher', 200, (n) => 'p'.repeat(n)],
    ['version', 64, (n) => '1'.repeat(n)],
    ['repositoryUrl', 2000, (n) => `https://e.com/${'r'.repeat(n - 14)}`],
    ['tags', 20, (n) => Array.from({ length: n }, (_, i) => `t${i}`)],
  ];

  it.each(bounded)('agree on the bound of %s (%i)', (field, bound, value) => {
    expect([
      admits(putSkillSchema, { ...put, [field]: value(bound) }),
      passes({ ...put, [field]: value(bound) }),
    ]).toEqual([true, true]);
    expect([
      admits(putSkillSchema, { ...put, [field]: value(bound + 1) }),
      passes({ ...put, [field]: value(bound + 1) }),
    ]).toEqual([false, false]);
  });

  it('agree on the length of one tag and on link schemes', () => {
    for (const [tags, ok] of [
      [['t'.repeat(50)], true],
      [['t'.repeat(51)], false],
    ] as const) {
      expect([admits(putSkillSchema, { ...put, tags }), passes({ ...put, tags: [...tags] })]).toEqual([ok, ok]);
    }
    for (const [url, ok] of [
      ['http://e.com', true],
      ['javascript:alert(1)', false],
      ['ftp://e.com/x', false],
    ] as const) {
      expect([admits(putSkillSchema, { ...put, homepageUrl: url }), passes({ ...put, homepageUrl: url })]).toEqual([
        ok,
        ok,
      ]);
    }
  });

  it('lets every private skill the admin API accepts through', () => {
    const longest = { name: 'n'.repeat(120), description: 'd'.repeat(2000) };
    expect(admits(privateSkillSchema, longest)).toBe(true);
    expect(passes(longest, 'private')).toBe(true);
  });
});
