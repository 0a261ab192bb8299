/**
 * Safe by default (docs/trust.md): what every engine shows of an item's
 * trust, and the trust filters and facets. The default verdicts come from
 * the search rule itself (domain/search-request.ts toSearchQuery), as the
 * route applies them. Registered by describeSearchEngineConformance, so each
 * runs on every engine.
 */
import type { ItemTrust, Verdict } from '@skills/common';
import { toSearchQuery, type SearchParams } from '../../../src/domain/search-request';
import type { SearchEngine, SearchQuery, SearchResult, SearchSort } from '../../../src/engines/search-engine';
import { itemState } from './engine-items';

/** A trust as events carry it; blocked items carry the reason. */
export function trusted(
  verdict: Verdict,
  publisherVerified = false,
  latestVersion: string | null = '1.0.0',
): ItemTrust {
  return {
    latestVersion,
    verdict,
    publisherVerified,
    blockedReason: verdict === 'malicious' ? 'steals credentials' : null,
  };
}

const SORTS: SearchSort[] = ['relevance', 'newest', 'name', 'popular'];

export function trustCases(engine: () => SearchEngine): void {
  /** A search as the route makes it: safe by default, unscanned items shown unless `showsUnscanned` is false. */
  const search = (params: Partial<SearchParams>, showsUnscanned = true): Promise<SearchResult> =>
    engine().search(toSearchQuery({ page: 1, limit: 20, ...params }, { showsUnscanned }));
  const names = async (params: Partial<SearchParams>, showsUnscanned = true) =>
    (await search(params, showsUnscanned)).items.map((i) => i.name).sort();
  const raw = (q: Partial<SearchQuery>): Promise<SearchResult> =>
    engine().search({ page: 1, limit: 20, sort: q.q ? 'relevance' : 'newest', ...q });

  it('never returns a blocked item: not with trust=any, an empty q, any sort, a tag nor its exact name, and facets do not count it', async () => {
    await engine().apply([
      itemState({ name: 'Lint Clean', tags: ['lint'], trust: trusted('clean') }),
      itemState({ name: 'Lint Evil', tags: ['lint'], trust: trusted('malicious', true) }),
      itemState({ name: 'Lint Odd', tags: ['lint'], trust: trusted('suspicious') }),
    ]);
    const shown = ['Lint Clean', 'Lint Odd'];
    for (const sort of SORTS) {
      expect(await names({ q: 'lint', trust: 'any', sort })).toEqual(shown);
      if (sort !== 'relevance') expect(await names({ trust: 'any', sort })).toEqual(shown);
      expect(await names({ q: '', trust: 'any', sort })).toEqual(shown);
      expect(await names({ tag: ['lint'], trust: 'any', sort })).toEqual(shown);
    }
    expect(await names({ q: 'lint evil', trust: 'any' })).toEqual([]);
    expect(await names({ q: 'lint clean', trust: 'any' })).toEqual(['Lint Clean']);
    // an engine asked without any trust filter at all still refuses it
    expect((await raw({})).items.map((i) => i.name).sort()).toEqual(shown);
    for (const q of [{}, { q: 'lint' }, { tag: ['lint'] }]) {
      const { facets, total } = await search({
        ...q,
        trust: 'any',
        facets: ['trust', 'verifiedPublisher', 'category'],
      });
      expect(total).toBe(2);
      expect(facets).toEqual({
        trust: [
          { value: 'clean', count: 1 },
          { value: 'suspicious', count: 1 },
        ],
        verifiedPublisher: [{ value: 'false', count: 2 }],
        category: [{ value: 'general', count: 2 }],
      });
    }
  });

  it('hides suspicious items by default, and shows them with trust=any or trust=suspicious', async () => {
    await engine().apply([
      itemState({ name: 'Pdf Reader', trust: trusted('clean') }),
      itemState({ name: 'Pdf Stealer', trust: trusted('suspicious') }),
      itemState({ name: 'Pdf Fresh', trust: trusted('unscanned', false, null) }),
    ]);
    for (const q of [undefined, 'pdf']) {
      expect(await names({ q })).toEqual(['Pdf Fresh', 'Pdf Reader']);
      expect((await search({ q })).total).toBe(2);
      expect(await names({ q, trust: 'any' })).toEqual(['Pdf Fresh', 'Pdf Reader', 'Pdf Stealer']);
      expect(await names({ q, trust: ['suspicious'] })).toEqual(['Pdf Stealer']);
      expect(await names({ q, trust: ['clean', 'suspicious'] })).toEqual(['Pdf Reader', 'Pdf Stealer']);
    }
    expect(await names({ q: 'pdf stealer' })).toEqual([]);
    expect(await names({ q: 'pdf stealer', trust: 'any' })).toEqual(['Pdf Stealer']);
  });

  it('shows unscanned items by default, and hides them when the deployment shows clean items alone', async () => {
    await engine().apply([
      itemState({ name: 'Csv Clean', trust: trusted('clean') }),
      itemState({ name: 'Csv New', trust: trusted('unscanned', false, null) }),
    ]);
    expect(await names({ q: 'csv' })).toEqual(['Csv Clean', 'Csv New']);
    expect(await names({ q: 'csv' }, false)).toEqual(['Csv Clean']);
    expect(await names({}, false)).toEqual(['Csv Clean']);
    expect((await search({}, false)).total).toBe(1);
    expect(await names({ trust: ['unscanned'] }, false)).toEqual(['Csv New']);
  });

  it('filters on the publisher’s verification, with and without text', async () => {
    await engine().apply([
      itemState({ name: 'Git Verified', trust: trusted('clean', true) }),
      itemState({ name: 'Git Anyone', trust: trusted('clean', false) }),
      itemState({ name: 'Git Odd Verified', trust: trusted('suspicious', true) }),
    ]);
    for (const q of [undefined, 'git']) {
      expect(await names({ q, verifiedPublisher: true })).toEqual(['Git Verified']);
      expect(await names({ q, verifiedPublisher: true, trust: 'any' })).toEqual(['Git Odd Verified', 'Git Verified']);
      expect(await names({ q, verifiedPublisher: false })).toEqual(['Git Anyone']);
      expect((await search({ q, verifiedPublisher: true, trust: 'any' })).total).toBe(2);
    }
  });

  it('counts trust and verifiedPublisher facets over the matches, under the other filters', async () => {
    await engine().apply([
      itemState({ name: 'Mail One', category: 'messaging', trust: trusted('clean', true) }),
      itemState({ name: 'Mail Two', category: 'messaging', trust: trusted('clean', false) }),
      itemState({ name: 'Mail Three', category: 'messaging', trust: trusted('suspicious', false) }),
      itemState({ name: 'Mail Four', category: 'messaging' }),
      itemState({ name: 'Mail Five', category: 'other', trust: trusted('clean', true) }),
    ]);
    for (const q of [undefined, 'mail']) {
      const any = await search({
        q,
        category: 'messaging',
        trust: 'any',
        facets: ['trust', 'verifiedPublisher', 'category'],
      });
      expect(any.facets).toEqual({
        trust: [
          { value: 'clean', count: 2 },
          { value: 'suspicious', count: 1 },
          { value: 'unscanned', count: 1 },
        ],
        verifiedPublisher: [
          { value: 'false', count: 3 },
          { value: 'true', count: 1 },
        ],
        category: [{ value: 'messaging', count: 4 }],
      });
      const safe = await search({ q, verifiedPublisher: false, facets: ['trust', 'verifiedPublisher', 'category'] });
      expect(safe.facets).toEqual({
        trust: [
          { value: 'clean', count: 1 },
          { value: 'unscanned', count: 1 },
        ],
        verifiedPublisher: [{ value: 'false', count: 2 }],
        category: [{ value: 'messaging', count: 2 }],
      });
    }
  });

  it('drops an item whose newer state turns malicious, and shows it again once a newer state clears it', async () => {
    const clean = itemState({ name: 'Slack Bot', trust: trusted('clean', false, '1.0.0') });
    await engine().apply([clean, itemState({ name: 'Slack Other', trust: trusted('clean') })]);
    expect(await names({ q: 'slack' })).toEqual(['Slack Bot', 'Slack Other']);
    await engine().apply([{ ...clean, version: 2, trust: trusted('malicious', false, '1.1.0') }]);
    expect(await names({ q: 'slack', trust: 'any' })).toEqual(['Slack Other']);
    expect(await names({ trust: 'any' })).toEqual(['Slack Other']);
    expect((await search({ trust: 'any', facets: ['trust'] })).facets).toEqual({
      trust: [{ value: 'clean', count: 1 }],
    });
    // an older state arriving late does not bring it back
    await engine().apply([{ ...clean, version: 1 }]);
    expect(await names({ q: 'slack', trust: 'any' })).toEqual(['Slack Other']);
    await engine().apply([{ ...clean, version: 3, trust: trusted('clean', false, '1.2.0') }]);
    const { items } = await search({ q: 'slack bot' });
    expect(items.map((i) => [i.name, i.latestVersion, i.verdict])).toEqual([['Slack Bot', '1.2.0', 'clean']]);
  });

  it('counts a state written before trust existed as unscanned, from an unverified publisher', async () => {
    await engine().apply([
      itemState({ name: 'Old Timer' }),
      itemState({ name: 'Old Clean', trust: trusted('clean', true) }),
    ]);
    const { items } = await search({ q: 'old timer' });
    expect(items.map((i) => [i.name, i.latestVersion, i.verdict, i.publisherVerified])).toEqual([
      ['Old Timer', null, 'unscanned', false],
    ]);
    expect(await names({ q: 'old' }, false)).toEqual(['Old Clean']);
    expect(await names({ trust: ['unscanned'] })).toEqual(['Old Timer']);
    expect(await names({ verifiedPublisher: false })).toEqual(['Old Timer']);
    expect((await search({ facets: ['trust', 'verifiedPublisher'] })).facets).toEqual({
      trust: [
        { value: 'clean', count: 1 },
        { value: 'unscanned', count: 1 },
      ],
      verifiedPublisher: [
        { value: 'false', count: 1 },
        { value: 'true', count: 1 },
      ],
    });
  });

  it('shows each item’s latest version, verdict and publisher verification', async () => {
    await engine().apply([
      itemState({ name: 'Shown Clean', trust: trusted('clean', true, '2.0.0') }),
      itemState({ name: 'Shown Odd', trust: trusted('suspicious', false, '0.3.0-rc.1') }),
    ]);
    const { items } = await search({ q: 'shown', trust: 'any', sort: 'name' });
    expect(
      items.map((i) => ({
        name: i.name,
        latestVersion: i.latestVersion,
        verdict: i.verdict,
        publisherVerified: i.publisherVerified,
      })),
    ).toEqual([
      { name: 'Shown Clean', latestVersion: '2.0.0', verdict: 'clean', publisherVerified: true },
      { name: 'Shown Odd', latestVersion: '0.3.0-rc.1', verdict: 'suspicious', publisherVerified: false },
    ]);
  });
}
