/**
 * The text rules every engine keeps (docs/search.md "Text rules", "Names",
 * "Typo tolerance"): the cases where a natural Elasticsearch translation
 * answers differently from the memory engine,
 * and a ranking fixed on a small corpus. Registered by
 * describeSearchEngineConformance, so each runs on every engine.
 */
import { NO_DETAILS } from '@skills/common';
import type { SearchEngine, SearchQuery, SearchResult } from '../../../src/engines/search-engine';
import { itemState } from './engine-items';

const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  page: 1,
  limit: 20,
  sort: overrides.q ? 'relevance' : 'newest',
  ...overrides,
});
const popular = (downloads: number) => ({ details: { ...NO_DETAILS, downloads } });

export function textRuleCases(engine: () => SearchEngine): void {
  const search = (q: Partial<SearchQuery>): Promise<SearchResult> => engine().search(query(q));
  const names = async (q: Partial<SearchQuery>) => (await search(q)).items.map((i) => i.name);

  it('matches each word in any field: one in the name, another in the description', async () => {
    await engine().apply([
      itemState({ name: 'Kubernetes Deployer', description: 'Ships containers to clusters' }),
      itemState({ name: 'Container Registry', description: 'Stores images' }),
    ]);
    expect(await names({ q: 'kubernetes containers' })).toEqual(['Kubernetes Deployer']);
    expect(await names({ q: 'deployer clust' })).toEqual(['Kubernetes Deployer']);
  });

  it('tries typos only when the words as typed find fewer than five', async () => {
    await engine().apply([
      ...['One', 'Two', 'Three', 'Four', 'Five'].map((n) => itemState({ name: `Lint ${n}` })),
      itemState({ name: 'Line Counter' }),
      itemState({ name: 'Mint Tracker' }),
    ]);
    const lint = await search({ q: 'lint', sort: 'newest' });
    expect(lint.total).toBe(5);
    expect(lint.items.map((i) => i.name)).not.toContain('Line Counter');
    // four exact matches are too few: the typo forms join, and that run finds more
    await engine().apply([itemState({ name: 'Dock Lint' })]);
    expect((await search({ q: 'dokc' })).total).toBe(1);
  });

  it('counts a typo budget on the word as typed, not on its stem', async () => {
    await engine().apply([itemState({ name: 'Library Loader' }), itemState({ name: 'Librarian Notes' })]);
    // "librarys": 8 letters, two edits allowed; its stem "librari" has seven
    expect(await names({ q: 'libarrys' })).toEqual(['Library Loader']);
  });

  it('drops the stop words of the Snowball English list before the last word, and stems with Porter2', async () => {
    await engine().apply([
      itemState({ name: 'Kubernetes Deployer' }),
      itemState({ name: 'General Helper' }),
      itemState({ name: 'Generate Docs' }),
    ]);
    // "further" and "own" are Snowball stop words (not in Lucene's 33-word English list)
    expect(await names({ q: 'further own kubernetes' })).toEqual(['Kubernetes Deployer']);
    // Porter2 keeps "generating" (generat) apart from "general", which Porter1 conflates (gener)
    expect(await names({ q: 'generating' })).toEqual(['Generate Docs']);
  });

  it('names exactly by the words of a name or slug, whatever separates them', async () => {
    await engine().apply([
      itemState({ name: 'Git Tool Extra', ...popular(5_000_000) }),
      itemState({ name: 'Git-Tool', slug: 'git-tool', ...popular(1) }),
    ]);
    expect((await names({ q: 'git  TOOL' }))[0]).toBe('Git-Tool');
    expect((await names({ q: 'git.tool' }))[0]).toBe('Git-Tool');
  });

  it('gives a one-letter or symbol-only query no name bonus', async () => {
    await engine().apply([itemState({ name: 'Apple Picker', ...popular(1_000_000) }), itemState({ name: 'A Tool' })]);
    expect(await names({ q: 'a' })).toEqual(['A Tool']);
    const emoji = await search({ q: '🚀 ✨' });
    expect(emoji.items).toEqual([]);
    expect(emoji.total).toBe(0);
  });

  it('takes the first eight words of a long query and ignores the rest', async () => {
    await engine().apply([
      itemState({ name: 'Kubernetes Deployer', description: 'ships containers to every cluster' }),
    ]);
    const tail = Array.from({ length: 30 }, (_, i) => `zzword${i}`).join(' ');
    // the eighth word is the last one read, so it is also a prefix
    expect(await names({ q: `kubernetes deployer ships containers to every cluster kube ${tail}` })).toEqual([
      'Kubernetes Deployer',
    ]);
  });

  it('suggests by the frequencies of searchable items only', async () => {
    await engine().apply([
      ...Array.from({ length: 4 }, (_, i) => itemState({ name: `Doket Draft ${i}`, status: 'draft' })),
      itemState({ name: 'Docket Keeper' }),
      itemState({ name: 'Dockets Archive' }),
    ]);
    // "doket" and "docket" are one edit from "dokcet": drafts do not make "doket" the better spelling
    const typo = await search({ q: 'dokcet' });
    expect(typo.items.map((i) => i.name)).toEqual(['Docket Keeper']);
    expect(typo.suggestion).toEqual({ q: 'docket', total: 2 });
  });

  it('suggests a better spelling even of a word the index holds', async () => {
    await engine().apply([
      itemState({ name: 'Lamp Lame Tool' }),
      itemState({ name: 'Lame Duck' }),
      itemState({ name: 'Lamest Joke' }),
    ]);
    // "lamp" is in a third of the items (Elasticsearch's term suggester leaves words in over 1 % alone by default)
    expect((await search({ q: 'lamp' })).suggestion).toEqual({ q: 'lame', total: 3 });
  });

  it('splits words at dots, underscores and apostrophes, in items and queries alike', async () => {
    await engine().apply([
      itemState({ name: 'Node.js Runner' }),
      itemState({ name: 'snake_case Formatter' }),
      itemState({ name: "Don't Panic" }),
    ]);
    expect(await names({ q: 'js' })).toEqual(['Node.js Runner']);
    expect(await names({ q: 'snake' })).toEqual(['snake_case Formatter']);
    expect(await names({ q: 'panic don' })).toEqual(["Don't Panic"]);
  });

  it('pages through equal scores without repeating or skipping an item', async () => {
    await engine().apply(Array.from({ length: 9 }, (_, i) => itemState({ name: `Widget ${i}` })));
    const pages = await Promise.all([1, 2, 3].map((page) => search({ q: 'widget', limit: 4, page })));
    const seen = pages.flatMap((p) => p.items.map((i) => i.name));
    expect(new Set(seen).size).toBe(9);
    expect(pages[0]!.total).toBe(9);
  });

  it('ranks a fixed corpus by the rules every engine keeps', async () => {
    await engine().apply([
      itemState({ name: 'Terraform Planner', description: 'Plans infrastructure changes', ...popular(20_000) }),
      itemState({ name: 'Terraform', description: 'Infrastructure as code', ...popular(50) }),
      itemState({ name: 'Plan Reviewer', description: 'Reviews terraform plans before apply', ...popular(900_000) }),
      itemState({
        name: 'Infra Docs',
        description: 'Documents infrastructure; terraform terraform terraform',
        ...popular(0),
      }),
      itemState({ name: 'Terraformer', description: 'Imports existing infrastructure', ...popular(3_000) }),
      itemState({ name: 'Cost Planner', description: 'Estimates plan costs', ...popular(10) }),
    ]);
    // the exact name, names it begins (one word before two), then description matches by weight
    expect(await names({ q: 'terraform' })).toEqual([
      'Terraform',
      'Terraformer',
      'Terraform Planner',
      'Infra Docs',
      'Plan Reviewer',
    ]);
    expect(await names({ q: 'terraform plan' })).toEqual(['Terraform Planner', 'Plan Reviewer']);
    // both words in both items, each once in a name: which first is each engine's own weighing
    expect(await names({ q: 'plans terraform' })).toEqual(
      expect.arrayContaining(['Plan Reviewer', 'Terraform Planner']),
    );
    expect(await names({ q: 'plans terraform' })).toHaveLength(2);
    // the name the query begins first; then a completion in the name against the word in a description
    const plan = await names({ q: 'plan' });
    expect(plan[0]).toBe('Plan Reviewer');
    expect(plan.slice(1).sort()).toEqual(['Cost Planner', 'Terraform Planner']);
    // a description match: short descriptions and more downloads first
    expect(await names({ q: 'infrastructure' })).toEqual([
      'Terraformer',
      'Terraform',
      'Terraform Planner',
      'Infra Docs',
    ]);
    const infra = await names({ q: 'infra' });
    expect(infra[0]).toBe('Infra Docs');
    expect(infra.slice(1).sort()).toEqual(['Terraform', 'Terraform Planner', 'Terraformer']);
  });
}
