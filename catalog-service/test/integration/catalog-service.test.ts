// @store-specific reads collections-service's outbox as its event log
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Sequelize } from 'sequelize';
import {
  NO_DETAILS,
  SKILL_CHANGES_TOPIC,
  createSequelize,
  runMigrations,
  type CatalogItemState,
  type SearchPolicy,
  type SkillChangeEvent,
} from '@skills/common';
import {
  createTestDatabase,
  eventually,
  type TestDatabase,
  silentLogger,
  publicKeysFile,
} from '@skills/common/testing';
import { collectionsMigrations } from '../../../collections-service/src/store/migrations';
import type { RunningService } from '@skills/common';
import { loadCatalogConfig, startCatalogService } from '../../src/index';
import { KEYS } from '../support/gateway-key-pair';

const signer = KEYS.signer();
let keys: Awaited<ReturnType<typeof publicKeysFile>>;

let db: TestDatabase;
let sequelize: Sequelize;
let service: RunningService;

beforeAll(async () => {
  db = await createTestDatabase();
  keys = await publicKeysFile(KEYS);
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'collections', collectionsMigrations);
  // a slow generation poll: a busy test machine must not turn the cache test into a bypass (writes here are local, cleared at once)
  const config = loadCatalogConfig({
    PORT: '0',
    DATABASE_URL: db.url,
    PRINCIPAL_PUBLIC_KEYS_FILE: keys.path,
    POLL_INTERVAL_MS: '20',
    SEARCH_CACHE_POLL_MS: '1000',
  });
  service = await startCatalogService(config, silentLogger());
});

afterAll(async () => {
  await service.close();
  await sequelize.close();
  await db.drop();
  await keys.remove();
});

async function publish(type: SkillChangeEvent['type'], item: CatalogItemState): Promise<void> {
  const event: SkillChangeEvent = {
    eventId: '',
    type,
    itemId: item.id,
    version: item.version,
    occurredAt: item.updatedAt,
    item,
  };
  await sequelize.query('INSERT INTO collections.outbox (topic, key, event) VALUES ($1, $2, $3::jsonb)', {
    bind: [SKILL_CHANGES_TOPIC, item.id, JSON.stringify(event)],
  });
}

/** The slugs a search finds, as an account whose principal carries `searchPolicy` when given (the gateway's doing). */
async function search(q: string, searchPolicy?: SearchPolicy, extra = ''): Promise<string[]> {
  const url = `/api/v1/skills?q=${encodeURIComponent(q)}${extra}`;
  const principal = {
    kind: 'account' as const,
    accountId: randomUUID(),
    plan: 'pro' as const,
    keyId: 'k',
    ...(searchPolicy ? { searchPolicy } : {}),
  };
  const res = await request(service.url)
    .get(url)
    .set('X-Skills-Principal', signer.sign(principal, 'catalog-service', 'GET', url));
  expect(res.status).toBe(200);
  return (res.body.data.skills as { slug: string }[]).map((s) => s.slug);
}

describe('startCatalogService', () => {
  it('indexes outbox events and serves them until a deletion hides them', async () => {
    const item: CatalogItemState = {
      id: randomUUID(),
      slug: 'helm-chart-linter',
      name: 'Helm Chart Linter',
      description: 'Checks charts before release',
      type: 'plugin',
      category: 'devops',
      tags: ['helm'],
      status: 'active',
      visibility: 'public',
      updatedAt: new Date().toISOString(),
      version: 1,
    };
    await publish('skill.upserted', item);
    await eventually(async () => (await search('helm')).length === 1, 'the item to be searchable');
    await publish('skill.deleted', { ...item, version: 2 });
    await eventually(async () => (await search('helm')).length === 0, 'the deletion to hide the item');
  });

  it('answers a repeated search from its cache and counts it on /metrics', async () => {
    const counter = async (name: string) => {
      const text = (await request(service.url).get('/metrics')).text;
      return Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    };
    const hits = await counter('skills_search_cache_hits_total');
    expect(await search('cached twice')).toEqual(await search('Cached   TWICE'));
    expect(await counter('skills_search_cache_hits_total')).toBe(hits + 1);
  });

  it('narrows a search to the workspace policy signed into the principal, and never answers one from the other’s cache', async () => {
    const workspaceId = randomUUID();
    const policy: SearchPolicy = {
      workspaceId,
      verdicts: ['clean', 'unscanned'],
      verifiedPublishersOnly: false,
      publishers: null,
      licenses: ['mit'],
      types: null,
      deniedSlugs: ['governed-denied'],
    };
    const governed = (slug: string, license: string): CatalogItemState => ({
      id: randomUUID(),
      slug,
      name: slug.replace('-', ' '),
      description: 'Governed by a team policy',
      type: 'skill',
      category: 'devops',
      tags: [],
      status: 'active',
      visibility: 'public',
      updatedAt: new Date().toISOString(),
      version: 1,
      details: { ...NO_DETAILS, license },
    });
    for (const item of [
      governed('governed-mit', 'MIT'),
      governed('governed-gpl', 'GPL-3.0'),
      governed('governed-denied', 'MIT'),
    ])
      await publish('skill.upserted', item);
    const everything = ['governed-denied', 'governed-gpl', 'governed-mit'];
    await eventually(async () => (await search('governed')).length === 3, 'the items to be searchable');
    // the same URL, first without a policy (now cached), then with one, then without again
    expect((await search('governed')).sort()).toEqual(everything);
    expect(await search('governed', policy)).toEqual(['governed-mit']);
    expect(await search('governed', policy, `&workspace=${workspaceId}`)).toEqual(['governed-mit']);
    expect((await search('governed')).sort()).toEqual(everything);
  });

  it('is ready once its engine and event log answer', async () => {
    const res = await request(service.url).get('/readyz');
    expect([res.status, res.body]).toEqual([200, { data: { status: 'ready' } }]);
  });
});
