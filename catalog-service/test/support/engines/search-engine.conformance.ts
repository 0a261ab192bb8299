/**
 * Behaviour every SearchEngine must show (docs/search.md). Each engine's test
 * file calls `describeSearchEngineConformance` with a setup that returns a
 * fresh, empty engine.
 */
import { randomUUID } from 'node:crypto';
import { NO_DETAILS, type CatalogItemState } from '@skills/common';
import { itemState } from './engine-items';
import type { SearchEngine, SearchQuery } from '../../../src/engines/search-engine';
import { policyCases } from './search-policy.conformance';
import { textRuleCases } from './search-text-rules.conformance';
import { trustCases } from './search-trust.conformance';

export interface EngineUnderTest {
  engine: SearchEngine;
  teardown(): Promise<void>;
}

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { page: 1, limit: 20, sort: overrides.q ? 'relevance' : 'newest', ...overrides };
}

async function* batches(...groups: CatalogItemState[][]): AsyncIterable<CatalogItemState[]> {
  for (const group of groups) yield group;
}

export function describeSearchEngineConformance(name: string, setup: () => Promise<EngineUnderTest>): void {
  describe(`${name} (SearchEngine conformance)`, () => {
    let sut: SearchEngine;
    let teardown: () => Promise<void>;

    beforeEach(async () => {
      ({ engine: sut, teardown } = await setup());
    });
    afterEach(async () => {
      await teardown();
    });

    const names = async (q: Partial<SearchQuery>) => (await sut.search(query(q))).items.map((i) => i.name);

    it('finds items by a word of their name or description', async () => {
      await sut.apply([
        itemState({ name: 'Kubernetes Deployer', description: 'Ships containers to clusters' }),
        itemState({ name: 'Invoice Parser', description: 'Reads PDF invoices' }),
      ]);
      expect(await names({ q: 'invoices' })).toEqual(['Invoice Parser']);
      expect(await names({ q: 'containers' })).toEqual(['Kubernetes Deployer']);
    });

    it('returns the public fields of an item', async () => {
      const item = itemState({
        name: 'Slack Notifier',
        description: 'Posts alerts',
        tags: ['chat', 'alerts'],
        type: 'plugin',
        category: 'messaging',
      });
      await sut.apply([item]);
      const { items } = await sut.search(query({ q: 'slack' }));
      expect(items).toEqual([
        {
          id: item.id,
          slug: item.slug,
          name: 'Slack Notifier',
          description: 'Posts alerts',
          type: 'plugin',
          category: 'messaging',
          tags: ['chat', 'alerts'],
          ...NO_DETAILS,
          updatedAt: item.updatedAt,
          latestVersion: null,
          verdict: 'unscanned',
          publisherVerified: false,
        },
      ]);
    });

    it('returns the registry details of an item', async () => {
      const details = {
        publisher: 'Acme',
        version: '2.1.0',
        license: 'Apache-2.0',
        repositoryUrl: 'https://git.example/acme/slack',
        homepageUrl: null,
        downloads: 1234,
      };
      await sut.apply([itemState({ name: 'Slack Notifier', details })]);
      const { items } = await sut.search(query({ q: 'slack' }));
      expect(items[0]).toMatchObject(details);
    });

    it('puts the most used first among equally good text matches, but an exact name before any', async () => {
      await sut.apply([
        itemState({ name: 'Git Tool', details: { ...NO_DETAILS, downloads: 2_000_000 } }),
        itemState({ name: 'Git Kit', details: { ...NO_DETAILS, downloads: 10 } }),
      ]);
      // The less used item is newer, so only popularity can put the other first.
      expect(await names({ q: 'git' })).toEqual(['Git Tool', 'Git Kit']);
      expect(await names({ q: 'git kit' })).toEqual(['Git Kit']);
      await sut.apply([itemState({ name: 'Git', details: { ...NO_DETAILS, downloads: 0 } })]);
      expect((await names({ q: 'git' }))[0]).toBe('Git');
    });

    it('puts names the query begins before other matches, the most used first', async () => {
      await sut.apply([
        itemState({ name: 'Vite', details: { ...NO_DETAILS, downloads: 100_000_000 } }),
        itemState({ name: 'Vitesse Theme', details: { ...NO_DETAILS, downloads: 10 } }),
        itemState({ name: 'Fast Builder', description: 'A vite plugin' }),
      ]);
      expect(await names({ q: 'vit' })).toEqual(['Vite', 'Vitesse Theme', 'Fast Builder']);
    });

    it('puts the name a query misspells first when it finds nothing as typed', async () => {
      await sut.apply([
        itemState({ name: 'Then Request', details: { ...NO_DETAILS, downloads: 5 } }),
        itemState({ name: 'Request', details: { ...NO_DETAILS, downloads: 10_000_000 } }),
        itemState({ name: 'Request Logger', details: { ...NO_DETAILS, downloads: 1_000_000 } }),
      ]);
      expect((await names({ q: 'then reqeust' }))[0]).toBe('Then Request');
    });

    it('orders by downloads on sort=popular, with and without text', async () => {
      await sut.apply([
        itemState({ name: 'Lint Alpha', details: { ...NO_DETAILS, downloads: 50 } }),
        itemState({ name: 'Lint Beta', details: { ...NO_DETAILS, downloads: 5_000 } }),
        itemState({ name: 'Format Gamma', details: { ...NO_DETAILS, downloads: 500 } }),
      ]);
      expect(await names({ sort: 'popular' })).toEqual(['Lint Beta', 'Format Gamma', 'Lint Alpha']);
      expect(await names({ q: 'lint', sort: 'popular' })).toEqual(['Lint Beta', 'Lint Alpha']);
    });

    it('filters by tags, every tag required, with and without text', async () => {
      await sut.apply([
        itemState({ name: 'Docker Lint', tags: ['docker', 'lint'] }),
        itemState({ name: 'Docker Build', tags: ['docker', 'build'] }),
        itemState({ name: 'Shell Lint', tags: ['shell', 'lint'] }),
      ]);
      expect(await names({ tags: ['docker'] })).toEqual(['Docker Build', 'Docker Lint']);
      expect(await names({ tags: ['docker', 'lint'] })).toEqual(['Docker Lint']);
      expect(await names({ q: 'lint', tags: ['lint'] })).toEqual(expect.arrayContaining(['Docker Lint', 'Shell Lint']));
      expect(await names({ q: 'docker', tags: ['shell'] })).toEqual([]);
      expect(await names({ tags: ['nothing-has-this'] })).toEqual([]);
      expect((await sut.search(query({ tags: ['lint'], limit: 1 }))).total).toBe(2);
    });

    it('counts facets for the current query and filters, most frequent first', async () => {
      await sut.apply([
        itemState({ name: 'Deploy One', category: 'devops', type: 'skill' }),
        itemState({ name: 'Deploy Two', category: 'devops', type: 'plugin' }),
        itemState({ name: 'Deploy Three', category: 'cloud', type: 'plugin' }),
        itemState({ name: 'Invoice Parser', category: 'finance', type: 'skill' }),
      ]);
      const deploy = await sut.search(query({ q: 'deploy', facets: ['category', 'type'] }));
      expect(deploy.facets).toEqual({
        category: [
          { value: 'devops', count: 2 },
          { value: 'cloud', count: 1 },
        ],
        type: [
          { value: 'plugin', count: 2 },
          { value: 'skill', count: 1 },
        ],
      });
      const browse = await sut.search(query({ type: 'skill', facets: ['category'] }));
      expect(browse.facets).toEqual({
        category: [
          { value: 'devops', count: 1 },
          { value: 'finance', count: 1 },
        ],
      });
      const tagged = await sut.search(query({ q: 'deploy', facets: ['type'], category: 'devops' }));
      expect(tagged.facets).toEqual({
        type: [
          { value: 'plugin', count: 1 },
          { value: 'skill', count: 1 },
        ],
      });
      expect((await sut.search(query({ q: 'deploy' }))).facets).toBeUndefined();
    });

    it('counts the items with no category under an empty value', async () => {
      await sut.apply([
        itemState({ name: 'Deploy One', category: 'devops' }),
        itemState({ name: 'Deploy Two', category: null }),
        itemState({ name: 'Deploy Three', category: null }),
      ]);
      expect((await sut.search(query({ q: 'deploy', facets: ['category'] }))).facets).toEqual({
        category: [
          { value: '', count: 2 },
          { value: 'devops', count: 1 },
        ],
      });
    });

    it('finds a word with two typos from 8 letters, but not a 6-letter word with two', async () => {
      await sut.apply([itemState({ name: 'Kubernetes Deployer' }), itemState({ name: 'Docker Compose' })]);
      expect(await names({ q: 'kubrenetse' })).toEqual(['Kubernetes Deployer']);
      expect(await names({ q: 'dcokre' })).toEqual([]);
    });

    it('suggests a close spelling that finds more when a query finds fewer than 3', async () => {
      await sut.apply([
        itemState({ name: 'Docker Compose' }),
        itemState({ name: 'Dockerfile Linter' }),
        itemState({ name: 'Dockerize' }),
      ]);
      const typo = await sut.search(query({ q: 'dokcer' }));
      expect(typo.items.map((i) => i.name)).toEqual(['Docker Compose']);
      expect(typo.suggestion).toEqual({ q: 'docker', total: 3 });
      expect((await sut.search(query({ q: 'docker' }))).suggestion).toBeUndefined();
    });

    it('ranks a match in the name above a match in the description', async () => {
      await sut.apply([
        itemState({ name: 'Release Notes Writer', description: 'Drafts notes from terraform plans' }),
        itemState({ name: 'Terraform Planner', description: 'Plans infrastructure changes' }),
      ]);
      // The description match is newer, so only ranking can put the name match first.
      expect(await names({ q: 'terraform' })).toEqual(['Terraform Planner', 'Release Notes Writer']);
    });

    it('matches the last word as a prefix', async () => {
      await sut.apply([itemState({ name: 'Kubernetes Deployer' }), itemState({ name: 'Invoice Parser' })]);
      expect(await names({ q: 'kube' })).toEqual(['Kubernetes Deployer']);
      expect(await names({ q: 'invoice pars' })).toEqual(['Invoice Parser']);
    });

    it('treats query syntax characters in q as plain separators', async () => {
      await sut.apply([itemState({ name: 'Kubernetes Deployer' }), itemState({ name: 'Invoice Parser' })]);
      expect(await names({ q: 'kubernetes & | ! ( ) \' " :* <-> deploy' })).toEqual(['Kubernetes Deployer']);
      expect(await names({ q: '!!! ***' })).toEqual([]);
    });

    it('tolerates a typo in a name when nothing matches exactly', async () => {
      await sut.apply([itemState({ name: 'Kubernetes Deployer' }), itemState({ name: 'Invoice Parser' })]);
      expect(await names({ q: 'kubernetse' })).toEqual(['Kubernetes Deployer']);
    });

    it('filters exactly by category and by type', async () => {
      await sut.apply([
        itemState({ name: 'A', category: 'devops', type: 'skill' }),
        itemState({ name: 'B', category: 'devops', type: 'plugin' }),
        itemState({ name: 'C', category: 'devops-tools', type: 'plugin' }),
      ]);
      expect(await names({ category: 'devops' })).toEqual(['B', 'A']);
      expect(await names({ type: 'plugin' })).toEqual(['C', 'B']);
      expect(await names({ category: 'devops', type: 'skill' })).toEqual(['A']);
      expect(await names({ category: 'dev' })).toEqual([]);
    });

    it('pages through results newest first with the total of all matches', async () => {
      const items = Array.from({ length: 7 }, (_, i) => itemState({ name: `Item ${i}` }));
      await sut.apply(items);
      const first = await sut.search(query({ limit: 3, page: 1 }));
      const third = await sut.search(query({ limit: 3, page: 3 }));
      expect(first.total).toBe(7);
      expect(first.items.map((i) => i.name)).toEqual(['Item 6', 'Item 5', 'Item 4']);
      expect(third.items.map((i) => i.name)).toEqual(['Item 0']);
      expect((await sut.search(query({ limit: 3, page: 4 }))).items).toEqual([]);
    });

    it('breaks ties by id in every order, so pages of items changed together neither repeat nor skip one', async () => {
      const at = new Date(Date.parse(itemState().updatedAt) + 3_600_000).toISOString();
      // ids that differ late (past the first 13 hex digits) as well as early
      const ids = [
        '0aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        '0aaaaaaa-aaaa-4aaa-9aaa-aaaaaaaaaaaa',
        'f0000000-0000-4000-8000-000000000000',
        randomUUID(),
        randomUUID(),
        randomUUID(),
      ];
      const expected = [...ids].sort();
      // one apply each, last id first: an engine that kept arrival order (or Lucene's segment order) fails
      for (const id of [...expected].reverse()) await sut.apply([itemState({ id, name: 'Same', updatedAt: at })]);
      for (const sort of ['newest', 'name', 'popular'] as const) {
        const pages = await Promise.all([1, 2, 3].map((page) => sut.search(query({ sort, limit: 2, page }))));
        expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(expected);
      }
    });

    it('sorts by name on request', async () => {
      await sut.apply([itemState({ name: 'beta' }), itemState({ name: 'Alpha' }), itemState({ name: 'gamma' })]);
      expect(await names({ sort: 'name' })).toEqual(['Alpha', 'beta', 'gamma']);
    });

    it('never returns draft, archived, deleted or private items', async () => {
      await sut.apply([
        itemState({ name: 'Visible Widget' }),
        itemState({ name: 'Draft Widget', status: 'draft' }),
        itemState({ name: 'Archived Widget', status: 'archived' }),
        itemState({ name: 'Deleted Widget', status: 'deleted' }),
        itemState({ name: 'Private Widget', visibility: 'private', slug: null }),
      ]);
      expect(await names({ q: 'widget' })).toEqual(['Visible Widget']);
      expect((await sut.search(query())).total).toBe(1);
    });

    it('hides an item once its tombstone is applied', async () => {
      const item = itemState({ name: 'Doomed Helper' });
      await sut.apply([item]);
      expect(await names({ q: 'doomed' })).toEqual(['Doomed Helper']);
      await sut.apply([{ ...item, status: 'deleted', version: 2 }]);
      expect(await names({ q: 'doomed' })).toEqual([]);
    });

    it('never lets an older version overwrite a newer one', async () => {
      const v1 = itemState({ name: 'First Name' });
      const v2 = { ...v1, name: 'Second Name', version: 2 };
      expect(await sut.apply([v2])).toEqual({ applied: 1, stale: 0 });
      expect(await sut.apply([v1])).toEqual({ applied: 0, stale: 1 });
      expect(await sut.apply([v2])).toEqual({ applied: 0, stale: 1 });
      expect(await names({})).toEqual(['Second Name']);
      // A late upsert cannot resurrect a deleted item either.
      await sut.apply([
        { ...v1, status: 'deleted', version: 3 },
        { ...v1, name: 'Zombie', version: 2 },
      ]);
      expect(await names({})).toEqual([]);
    });

    it('keeps answering during a reindex and serves the new content afterwards', async () => {
      await sut.apply([itemState({ name: 'Old Content' })]);
      const seen: string[][] = [];
      const replacement = itemState({ name: 'New Content' });
      async function* source(): AsyncIterable<CatalogItemState[]> {
        // Searched while the rebuild is in progress: the old content still answers.
        seen.push(await names({}));
        yield [replacement];
        seen.push(await names({}));
      }
      const progress: number[] = [];
      const result = await sut.reindex(source(), (p) => progress.push(p.indexed));
      expect(seen).toEqual([['Old Content'], ['Old Content']]);
      expect(result.indexed).toBe(1);
      expect(progress).toEqual([1]);
      expect(await names({})).toEqual(['New Content']);
      // The rebuilt model still honours versions.
      await sut.apply([{ ...replacement, name: 'Newer Content', version: 2 }]);
      expect(await names({ q: 'newer' })).toEqual(['Newer Content']);
      await sut.reindex(batches([itemState({ name: 'Third' })], []));
      expect(await names({})).toEqual(['Third']);
    });

    it('keeps the live content when a reindex fails midway', async () => {
      await sut.apply([itemState({ name: 'Live Content' })]);
      async function* failing(): AsyncIterable<CatalogItemState[]> {
        yield [itemState({ name: 'Partial Content' })];
        throw new Error('source went away');
      }
      await expect(sut.reindex(failing())).rejects.toThrow('source went away');
      expect(await names({})).toEqual(['Live Content']);
      await sut.reindex(batches([itemState({ name: 'Fresh Content' })]));
      expect(await names({})).toEqual(['Fresh Content']);
    });

    it('reports itself healthy', async () => {
      expect(await sut.health()).toEqual({ ok: true });
    });

    describe('text rules', () => textRuleCases(() => sut));
    describe('trust', () => trustCases(() => sut));
    describe('workspace policy', () => policyCases(() => sut));
  });
}
