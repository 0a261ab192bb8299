/**
 * A workspace policy ANDed with a search (docs/governance.md "Policy for
 * every client"), as the route applies it: the request's parameters through
 * the search rule (toSearchQuery), then the policy (searchUnderPolicy).
 * Registered by describeSearchEngineConformance, so each runs on every
 * engine, for a browse, a one-word and a two-word text search and a tag.
 */
import { NO_DETAILS, type CatalogItemState, type SearchPolicy } from '@skills/common';
import { searchUnderPolicy } from '../../../src/domain/search-policy';
import { toSearchQuery, type SearchParams } from '../../../src/domain/search-request';
import type { SearchEngine, SearchResult } from '../../../src/engines/search-engine';
import { itemState } from './engine-items';
import { trusted } from './search-trust.conformance';

/** A policy that allows everything a search shows: each case narrows one field. */
const OPEN: SearchPolicy = {
  workspaceId: '00000000-0000-4000-8000-000000000001',
  verdicts: ['clean', 'unscanned', 'suspicious'],
  verifiedPublishersOnly: false,
  publishers: null,
  licenses: null,
  types: null,
  deniedSlugs: [],
};

/** Every item is named "Pdf …" and tagged `pdf`: each form of search below finds all of them without a policy. */
const FORMS: Array<Partial<SearchParams>> = [{}, { q: 'pdf' }, { q: 'pdf tool' }, { tag: ['pdf'] }, { sort: 'name' }];

function pdfItem(name: string, overrides: Partial<CatalogItemState> = {}): CatalogItemState {
  return itemState({
    name: `Pdf ${name}`,
    description: 'a tool',
    tags: ['pdf'],
    trust: trusted('clean'),
    ...overrides,
  });
}

export function policyCases(engine: () => SearchEngine): void {
  const search = (params: Partial<SearchParams>, policy: Partial<SearchPolicy>): Promise<SearchResult> =>
    searchUnderPolicy(engine(), toSearchQuery({ page: 1, limit: 20, ...params }, { showsUnscanned: true }), {
      ...OPEN,
      ...policy,
    });
  const names = async (params: Partial<SearchParams>, policy: Partial<SearchPolicy>) =>
    (await search(params, policy)).items.map((i) => i.name).sort();

  /** Every form of search shows `expected` (sorted), and counts them, under `policy` and `params`. */
  async function expectEverywhere(
    params: Partial<SearchParams>,
    policy: Partial<SearchPolicy>,
    expected: string[],
  ): Promise<void> {
    for (const form of FORMS) {
      const result = await search({ ...form, ...params }, policy);
      expect({ form, names: result.items.map((i) => i.name).sort(), total: result.total }).toEqual({
        form,
        names: expected,
        total: expected.length,
      });
    }
  }

  it('shows only the verdicts the policy allows, intersected with trust=, and an empty intersection finds nothing', async () => {
    await engine().apply([
      pdfItem('Clean'),
      pdfItem('Odd', { trust: trusted('suspicious') }),
      pdfItem('New', { trust: trusted('unscanned', false, null) }),
    ]);
    await expectEverywhere({ trust: 'any' }, {}, ['Pdf Clean', 'Pdf New', 'Pdf Odd']);
    await expectEverywhere({ trust: 'any' }, { verdicts: ['clean', 'unscanned'] }, ['Pdf Clean', 'Pdf New']);
    await expectEverywhere({ trust: ['clean', 'suspicious'] }, { verdicts: ['clean', 'unscanned'] }, ['Pdf Clean']);
    await expectEverywhere({ trust: ['suspicious'] }, { verdicts: ['clean', 'unscanned'] }, []);
    expect((await search({ trust: ['suspicious'], facets: ['trust'] }, { verdicts: ['clean'] })).facets).toEqual({
      trust: [],
    });
  });

  it('shows only verified publishers when the policy says so, whatever verifiedPublisher= asks', async () => {
    await engine().apply([
      pdfItem('Verified', { trust: trusted('clean', true) }),
      pdfItem('Anyone', { trust: trusted('clean', false) }),
    ]);
    await expectEverywhere({}, {}, ['Pdf Anyone', 'Pdf Verified']);
    await expectEverywhere({}, { verifiedPublishersOnly: true }, ['Pdf Verified']);
    await expectEverywhere({ verifiedPublisher: true }, { verifiedPublishersOnly: true }, ['Pdf Verified']);
    await expectEverywhere({ verifiedPublisher: false }, { verifiedPublishersOnly: true }, []);
  });

  it('shows only the listed publishers, compared exactly', async () => {
    const by = (publisher: string | null) => ({ details: { ...NO_DETAILS, publisher } });
    await engine().apply([
      pdfItem('Acme', by('acme')),
      pdfItem('Shouting', by('ACME')),
      pdfItem('Other', by('other')),
      pdfItem('Nobody', by(null)),
    ]);
    await expectEverywhere({}, { publishers: ['acme'] }, ['Pdf Acme']);
    await expectEverywhere({}, { publishers: ['acme', 'other'] }, ['Pdf Acme', 'Pdf Other']);
    await expectEverywhere({}, { publishers: [] }, []);
  });

  it('shows only the listed licences, compared case-insensitively', async () => {
    const licensed = (license: string | null) => ({ details: { ...NO_DETAILS, license } });
    await engine().apply([
      pdfItem('Mit', licensed('MIT')),
      pdfItem('Apache', licensed('Apache-2.0')),
      pdfItem('Gpl', licensed('GPL-3.0')),
      pdfItem('Unlicensed', licensed(null)),
    ]);
    await expectEverywhere({}, { licenses: ['mit', 'apache-2.0'] }, ['Pdf Apache', 'Pdf Mit']);
    await expectEverywhere({}, { licenses: ['gpl-3.0'] }, ['Pdf Gpl']);
    const { items } = await search({ q: 'pdf mit' }, { licenses: ['mit'] });
    expect(items.map((i) => i.license)).toEqual(['MIT']);
  });

  it('shows only the allowed types, intersected with type=', async () => {
    await engine().apply([pdfItem('Skill', { type: 'skill' }), pdfItem('Plugin', { type: 'plugin' })]);
    await expectEverywhere({}, { types: ['plugin'] }, ['Pdf Plugin']);
    await expectEverywhere({}, { types: ['skill', 'plugin'] }, ['Pdf Plugin', 'Pdf Skill']);
    await expectEverywhere({ type: 'plugin' }, { types: ['skill', 'plugin'] }, ['Pdf Plugin']);
    await expectEverywhere({ type: 'skill' }, { types: ['plugin'] }, []);
  });

  it('never returns a denied slug, not even by its exact name', async () => {
    const denied = pdfItem('Denied', { slug: 'pdf-denied' });
    await engine().apply([denied, pdfItem('Kept', { slug: 'pdf-kept' })]);
    await expectEverywhere({}, { deniedSlugs: ['pdf-denied', 'never-seen'] }, ['Pdf Kept']);
    expect(await names({ q: 'pdf denied' }, {})).toEqual(['Pdf Denied']);
    expect(await names({ q: 'pdf denied' }, { deniedSlugs: ['pdf-denied'] })).toEqual([]);
    expect(await names({ q: 'pdf-denied' }, { deniedSlugs: ['pdf-kept'] })).toContain('Pdf Denied');
  });

  it('counts facets and pages over what the policy shows, ANDed with the request’s filters', async () => {
    const by = (publisher: string) => ({ details: { ...NO_DETAILS, publisher } });
    await engine().apply([
      pdfItem('One', { ...by('acme'), category: 'docs', type: 'skill' }),
      pdfItem('Two', { ...by('acme'), category: 'docs', type: 'plugin' }),
      pdfItem('Three', { ...by('acme'), category: 'office', type: 'skill', trust: trusted('suspicious') }),
      pdfItem('Four', { ...by('other'), category: 'office', type: 'skill' }),
      pdfItem('Five', { ...by('acme'), category: 'office', type: 'skill', slug: 'pdf-five' }),
    ]);
    const policy = { publishers: ['acme'], verdicts: ['clean' as const], deniedSlugs: ['pdf-five'] };
    for (const form of FORMS) {
      const result = await search({ ...form, trust: 'any', facets: ['category', 'type', 'trust'] }, policy);
      expect({ form, total: result.total, facets: result.facets }).toEqual({
        form,
        total: 2,
        facets: {
          category: [{ value: 'docs', count: 2 }],
          type: [
            { value: 'plugin', count: 1 },
            { value: 'skill', count: 1 },
          ],
          trust: [{ value: 'clean', count: 2 }],
        },
      });
      const filtered = await search({ ...form, category: 'docs', type: 'plugin', facets: ['category'] }, policy);
      expect(filtered.items.map((i) => i.name)).toEqual(['Pdf Two']);
      expect(filtered.facets).toEqual({ category: [{ value: 'docs', count: 1 }] });
    }
    const first = await search({ sort: 'name', limit: 1 }, policy);
    const second = await search({ sort: 'name', limit: 1, page: 2 }, policy);
    expect([first.total, ...first.items.map((i) => i.name), ...second.items.map((i) => i.name)]).toEqual([
      2,
      'Pdf One',
      'Pdf Two',
    ]);
  });

  it('suggests a spelling only for what the policy shows, and counts only that', async () => {
    await engine().apply([
      itemState({ name: 'Docker Compose', slug: 'docker-compose' }),
      itemState({ name: 'Dockerfile Linter', slug: 'dockerfile-linter' }),
      itemState({ name: 'Dockerize', slug: 'dockerize' }),
    ]);
    expect((await search({ q: 'dokcer' }, {})).suggestion).toEqual({ q: 'docker', total: 3 });
    expect((await search({ q: 'dokcer' }, { deniedSlugs: ['dockerize'] })).suggestion).toEqual({
      q: 'docker',
      total: 2,
    });
    // the suggestion would find the item already found, and the two the policy hides: none is offered
    const hidden = await search({ q: 'dokcer' }, { deniedSlugs: ['dockerize', 'dockerfile-linter'] });
    expect({ names: hidden.items.map((i) => i.name), suggestion: hidden.suggestion }).toEqual({
      names: ['Docker Compose'],
      suggestion: undefined,
    });
  });
}
