/**
 * MemoryIndex without I/O: what the conformance suite does not pin down —
 * typo reach, stop words, exact names first, the count cap, filters and
 * orders combined with text, and that rebuilding drops nothing. The early
 * stops and the structures that change plan past a threshold are tested
 * with small thresholds (small-thresholds.ts), so a few dozen items cross them.
 */
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import { TYPO_FALLBACK_BELOW, type SearchQuery } from '../../../../src/engines/search-engine';
import { matchQuery } from '../../../../src/engines/memory/query-matcher';
import { NO_DETAILS } from '@skills/common';
import { itemState } from '../../../support/engines/engine-items';
import { SMALL_THRESHOLDS } from '../../../support/engines/memory/small-thresholds';
import {
  CAP,
  expectPagesAsIfEverythingWasRead,
  many,
  names,
  query,
  smallIndex,
} from '../../../support/engines/memory/memory-index-queries';

function indexOf(...names: string[]): MemoryIndex {
  const sut = new MemoryIndex();
  sut.apply(names.map((name) => itemState({ name })));
  return sut;
}

describe('MemoryIndex', () => {
  it('finds a word with two neighbouring letters swapped, or one letter wrong, missing or extra', () => {
    const sut = indexOf('Dockerfile Linter', 'Docker Compose Helper', 'Invoice Parser');
    expect(names(sut, { q: 'dokcer' })).toEqual(['Docker Compose Helper']);
    expect(names(sut, { q: 'invoise' })).toEqual(['Invoice Parser']);
    expect(names(sut, { q: 'invoce' })).toEqual(['Invoice Parser']);
    expect(names(sut, { q: 'invoicee parser' })).toEqual(['Invoice Parser']);
  });

  it('puts exact matches before typo matches, and spends no typo reach on short words', () => {
    const sut = indexOf('Cart Tool', 'Card Tool');
    // fewer than 5 exact matches: the spelling one edit away joins, after them
    expect(names(sut, { q: 'card tool' })).toEqual(['Card Tool', 'Cart Tool']);
    expect(names(sut, { q: 'crd' })).toEqual([]);
  });

  it('puts the item whose whole name is the query first, however common its words', () => {
    const sut = indexOf('React Native Components Library', 'React Native', 'Native React Bridge For React Native');
    expect(names(sut, { q: 'react native' })[0]).toBe('React Native');
  });

  it('prefers the word as typed to its longer completions', () => {
    const sut = indexOf('Reactive Streams', 'React');
    expect(names(sut, { q: 'react' })).toEqual(['React', 'Reactive Streams']);
  });

  it('ignores stop words except as the start of the last word', () => {
    const sut = indexOf('Linter for Docker', 'Format Checker');
    expect(names(sut, { q: 'the linter for docker' })).toEqual(['Linter for Docker']);
    expect(names(sut, { q: 'for' })).toContain('Format Checker');
  });

  it('matches other forms of a word through its stem', () => {
    const sut = indexOf('Deployment Planner', 'Invoice Parser');
    expect(names(sut, { q: 'deploying planner' })).toEqual(['Deployment Planner']);
  });

  it('caps the total at the count cap (the result window) and still pages through the best', () => {
    const sut = smallIndex();
    sut.apply(many(CAP + 5, (i) => itemState({ name: `Widget ${i}` })));
    const first = sut.search(query({ q: 'widget', limit: 5 }));
    expect(first.total).toBe(CAP);
    expect(first.items).toHaveLength(5);
    expect(sut.search(query({ q: 'widget', limit: 5, page: CAP / 5 })).items).toHaveLength(5);
    expect(sut.search(query({ limit: 5 })).total).toBe(CAP);
  });

  it('ranks names the query begins first, most used first, as if it had read every match, although it stops early', () => {
    const sut = smallIndex();
    sut.apply([
      ...many(CAP + 5, (i) => itemState({ name: 'Thing', description: `about widget number ${i}` })),
      ...many(14, (i) =>
        itemState({
          name: i % 7 === 0 ? 'Widget Pro' : 'Widget Kit Extra',
          details: { ...NO_DETAILS, downloads: i * 97 },
        }),
      ),
      ...many(8, (i) =>
        itemState({
          name: `Widgetry ${i}`,
          description: 'widget tools',
          details: { ...NO_DETAILS, downloads: i * 1_000 },
        }),
      ),
    ]);
    for (const q of ['widget', 'wid', 'widgetr']) expectPagesAsIfEverythingWasRead(sut, q);
    const top = sut.search(query({ q: 'wid', limit: CAP })).items;
    expect(top.every((item) => item.name.startsWith('Widget'))).toBe(true);
    // the most downloaded one-word-longer name leads its kind
    expect(top[0]).toMatchObject({ name: 'Widgetry 7' });
  });

  it('ranks names the query begins as if it had read every match after removals and updates compact the lists', () => {
    // descriptions of different lengths give each name's first word a different weight, and only
    // that weight tells the names apart (equal bonuses; fillers make "widget" rare enough to weigh)
    const sut = smallIndex();
    const items = many(90, (i) => itemState({ name: `Widget ${i}`, description: 'word '.repeat(i % 13) }));
    sut.apply([...items, ...many(90, () => itemState({ name: 'Filler' }))]);
    // two in three removed (the lists compact), every fifth renamed (a new ordinal, a new weight)
    sut.apply(
      items.map((item, i) =>
        i % 3
          ? { ...item, status: 'deleted' as const, version: 2 }
          : i % 5
            ? item
            : { ...item, description: 'short', version: 2 },
      ),
    );
    for (const q of ['widget', 'wid']) expectPagesAsIfEverythingWasRead(sut, q);
  });

  it('counts facets over every match even where the early stop read only part of them', () => {
    const sut = smallIndex();
    sut.apply([
      ...many(CAP + 5, (i) => itemState({ name: `Widget ${i}`, category: 'alpha' })),
      ...many(8, (i) =>
        itemState({ name: `Gadget ${i}`, description: 'a widget too', category: 'beta', type: 'plugin' }),
      ),
      ...many(5, () => itemState({ name: 'Other', category: 'gamma' })),
    ]);
    const result = sut.search(query({ q: 'widget', facets: ['category', 'type'], limit: 5 }));
    expect(result.total).toBe(CAP);
    expect(result.facets).toEqual({
      category: [
        { value: 'alpha', count: CAP },
        { value: 'beta', count: 8 },
      ],
      type: [
        { value: 'skill', count: CAP },
        { value: 'plugin', count: 8 },
      ],
    });
    // the page is the one a search without facets gives
    expect(result.items.map((i) => i.id)).toEqual(sut.search(query({ q: 'widget', limit: 5 })).items.map((i) => i.id));
  });

  it('counts facets per value across every category and type pair, with and without a tag filter, where the early stop read part of the matches', () => {
    const sut = smallIndex();
    const categories = ['alpha', 'beta', 'gamma'];
    sut.apply(
      many(150, (i) =>
        itemState({
          name: `Widget ${i}`,
          category: categories[i % 3],
          type: i % 7 === 0 ? 'plugin' : 'skill',
          tags: i % 4 === 0 ? [] : ['red'],
        }),
      ),
    );
    for (const filters of [{}, { tags: ['red'] }, { type: 'plugin' as const }]) {
      const every = matchQuery(sut.store, query({ q: 'widget', ...filters }), TYPO_FALLBACK_BELOW, true).docs.map((d) =>
        sut.store.item(d),
      );
      const expected = (field: 'category' | 'type') => {
        const counts = new Map<string, number>();
        for (const item of every) counts.set(item[field], (counts.get(item[field]) ?? 0) + 1);
        return [...counts]
          .sort(([va, a], [vb, b]) => b - a || va.localeCompare(vb))
          .map(([value, count]) => ({ value, count: Math.min(count, CAP) }));
      };
      const { facets } = sut.search(query({ q: 'widget', facets: ['category', 'type'], limit: 5, ...filters }));
      expect(facets).toEqual({ category: expected('category'), type: expected('type') });
    }
  });

  it('ranks a broad prefix as if it had read every match, although it stops reading early', () => {
    // "widget" is in more items than the cap (one of them named just "Widget", the best possible match), mostly
    // deep in long descriptions; "widths" in a few, also in descriptions but rarer, so each scores above most
    // "widget" items. Past the cap the early stop may skip only terms that cannot reach the page: "widths" can.
    const filler = (word: string) =>
      `a long description about ${word} that goes on with many more words to make it long`;
    const sut = smallIndex();
    sut.apply([
      ...many(50, () => itemState({ name: 'Filler', description: 'nothing to see' })),
      ...many(CAP + 5, () => itemState({ name: 'Thing', description: filler('widget') })),
      itemState({ name: 'Widget' }),
      ...many(5, () => itemState({ name: 'Gadget', description: filler('widths') })),
    ]);
    expectPagesAsIfEverythingWasRead(sut, 'wid');
    expect(sut.search(query({ q: 'wid' })).total).toBe(CAP);
  });

  it('breaks ties among equally weighted matches newest first, although it stops reading early', () => {
    // every item weighs "widget" alike: only the tie-break (newest first) decides the page
    const sut = smallIndex();
    sut.apply(many(2 * CAP, (i) => itemState({ name: 'Widget Tool', description: `number ${i}` })));
    expectPagesAsIfEverythingWasRead(sut, 'widget');
    expect(names(sut, { q: 'widget', limit: 2 })).toEqual(['Widget Tool', 'Widget Tool']);
  });

  it('ranks a misspelt broad word as if it had read every match, names it misspells first, although it stops early', () => {
    // The oldest items carry the typo bonus: a one-word name or slug within one edit of "wdiget", their
    // "widget" weight diluted by long descriptions; more newer two-word names than the cap weigh it alike and more.
    const long = 'a long description that says a great deal about a widget and about nothing else at all';
    const sut = smallIndex();
    sut.apply([
      itemState({ name: 'Widget', description: long }),
      itemState({ name: 'Gizmo Box', slug: 'wdigte', description: long }),
      itemState({ name: 'Widgets', description: long }), // two edits: no bonus, although as long
      ...many(CAP + 5, (i) => itemState({ name: 'Widget Tool', description: `number ${i}` })),
    ]);
    expectPagesAsIfEverythingWasRead(sut, 'wdiget');
    expect(names(sut, { q: 'wdiget', limit: 3 })).toEqual(['Widget', 'Gizmo Box', 'Widget Tool']);
  });

  it('ranks a word after stop words as if it had read every match, names the whole query begins first', () => {
    // "for" is a stop word, so "widget" is the one word that counts, in more descriptions than the cap; only
    // the names the whole key begins ("for widget", "for wid") earn the name-begins bonus, not "Format …"
    const diluting = 'a long description that dilutes every word of the name a great deal';
    const sut = smallIndex();
    sut.apply([
      ...many(CAP + 5, (i) => itemState({ name: `Thing ${i}`, description: `a widget for number ${i}` })),
      ...many(9, (i) =>
        itemState({
          name: i % 3 ? 'For Widgets Kit' : `For Widget ${i}`,
          description: diluting,
          details: { ...NO_DETAILS, downloads: i * 100 },
        }),
      ),
      ...many(6, (i) => itemState({ name: `Format ${i}`, description: 'widget' })),
    ]);
    for (const q of ['for widget', 'for wid', 'the for widget']) expectPagesAsIfEverythingWasRead(sut, q);
    expect(names(sut, { q: 'for wid', limit: 9 }).every((name) => name.startsWith('For Widget'))).toBe(true);
    expect(
      names(sut, { q: 'for widget', limit: 5, category: 'general' }).every((name) => name.startsWith('For Widget')),
    ).toBe(true);
  });

  it('puts the item named exactly as the query first even when reading stops before its posting', () => {
    // More items than the cap weigh "widget" more (twice in a short name) and their names, the query begins,
    // earn more (downloaded more); the one named "Widget" has a long description that dilutes its weight
    // below the page, where the early stop leaves the list.
    const sut = smallIndex();
    sut.apply(
      many(CAP + 5, () => itemState({ name: 'Widget Widget', details: { ...NO_DETAILS, downloads: 1_000_000 } })),
    );
    sut.apply([
      itemState({
        name: 'Widget',
        description: 'one of the many items whose long description says a great deal about nothing else',
      }),
    ]);
    expect(names(sut, { q: 'widget', limit: 3 })[0]).toBe('Widget');
    expect(names(sut, { q: 'widget', limit: 3, category: 'general' })[0]).toBe('Widget');
  });

  it('ranks the items named exactly as the query by their weight, as if it had read every match, although reading stops before their postings', () => {
    // Two items named "Widget": the older weighs the word more (a shorter description). Both are
    // below the page by weight alone, where the early stop leaves the list; fillers make "widget" weigh.
    const sut = smallIndex();
    sut.apply([
      itemState({ name: 'Widget', slug: 'widget-short', description: 'short words' }),
      itemState({
        name: 'Widget',
        slug: 'widget-long',
        description: 'one of the many items whose long description says a great deal about nothing else',
      }),
    ]);
    sut.apply(many(CAP + 5, () => itemState({ name: 'Widget Widget' })));
    sut.apply(many(CAP + 5, () => itemState({ name: 'Filler' })));
    expectPagesAsIfEverythingWasRead(sut, 'widget');
    expect(sut.search(query({ q: 'widget', limit: 2 })).items.map((i) => i.slug)).toEqual([
      'widget-short',
      'widget-long',
    ]);
  });

  it('combines text with filters and with the name and newest orders', () => {
    const sut = new MemoryIndex();
    sut.apply([
      itemState({ name: 'Zeta Lint', category: 'devops', type: 'plugin' }),
      itemState({ name: 'Alpha Lint', category: 'devops', type: 'skill' }),
      itemState({ name: 'Beta Lint', category: 'design', type: 'plugin' }),
    ]);
    expect(names(sut, { q: 'lint', category: 'devops' }).sort()).toEqual(['Alpha Lint', 'Zeta Lint']);
    expect(names(sut, { q: 'lint', type: 'plugin', category: 'design' })).toEqual(['Beta Lint']);
    expect(names(sut, { q: 'lint', sort: 'name' })).toEqual(['Alpha Lint', 'Beta Lint', 'Zeta Lint']);
    expect(names(sut, { q: 'lint', sort: 'newest' })).toEqual(['Beta Lint', 'Alpha Lint', 'Zeta Lint']);
    expect(sut.search(query({ category: 'devops', type: 'plugin' })).total).toBe(1);
  });

  it('lists every filter in every order after a bulk load settles, and after writes that follow it', () => {
    const sut = smallIndex();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i % 7)).toISOString(); // many equal times: ids break the ties
    const make = (i: number) =>
      itemState({
        name: `Item ${(i * 7_919) % 1_000}`,
        category: ['alpha', 'beta', 'gamma'][i % 3]!,
        type: i % 4 ? 'skill' : 'plugin',
        updatedAt: at(i),
        details: { ...NO_DETAILS, downloads: (i * 31) % 17 },
      });
    const items = many(60, make);
    sut.apply(items);
    sut.settle();
    const later = many(9, (i) => make(60 + i));
    const expectOrders = (held: typeof items) => {
      const newest = (a: (typeof items)[0], b: (typeof items)[0]) =>
        b.updatedAt.localeCompare(a.updatedAt) || (a.id < b.id ? -1 : 1);
      const orders = {
        newest,
        name: (a: (typeof items)[0], b: (typeof items)[0]) =>
          a.name.toLowerCase() < b.name.toLowerCase()
            ? -1
            : a.name.toLowerCase() > b.name.toLowerCase()
              ? 1
              : a.id < b.id
                ? -1
                : 1,
        popular: (a: (typeof items)[0], b: (typeof items)[0]) =>
          (b.details?.downloads ?? 0) - (a.details?.downloads ?? 0) || newest(a, b),
      };
      for (const filter of [
        {},
        { category: 'beta' },
        { type: 'plugin' as const },
        { category: 'gamma', type: 'skill' as const },
      ]) {
        for (const [sort, compare] of Object.entries(orders)) {
          const expected = held
            .filter((item) => Object.entries(filter).every(([k, v]) => item[k as 'category'] === v))
            .sort(compare);
          const found = sut.search(query({ ...filter, sort: sort as SearchQuery['sort'], limit: 5, page: 2 }));
          expect(found.items.map((item) => item.id)).toEqual(expected.slice(5, 10).map((item) => item.id));
          expect(found.total).toBe(Math.min(expected.length, CAP));
        }
      }
    };
    expectOrders(items);
    sut.apply(later);
    expectOrders([...items, ...later]);
  });

  it('keeps browse orders and counts right through updates and removals', () => {
    const sut = smallIndex();
    const items = many(60, (i) => itemState({ name: `Item ${i}`, category: i % 2 ? 'odd' : 'even' }));
    sut.apply(items);
    sut.settle();
    // every even item is deleted, every odd one renamed: ordinals die, orders sweep them out
    sut.apply(
      items.map((item, i) =>
        i % 2 ? { ...item, name: `Renamed ${i}`, version: 2 } : { ...item, status: 'deleted' as const, version: 2 },
      ),
    );
    expect(sut.size).toBe(30);
    expect(sut.search(query({ category: 'even' })).total).toBe(0);
    const odd = sut.search(query({ category: 'odd', limit: 3 }));
    expect(odd.total).toBe(Math.min(30, CAP));
    expect(odd.items.map((i) => i.name)).toEqual(['Renamed 59', 'Renamed 57', 'Renamed 55']);
    expect(names(sut, { q: 'item' })).toEqual([]);
    expect(sut.search(query({ sort: 'name', limit: 1 })).items[0]?.name).toBe('Renamed 1');
  });

  it('rebuilds without the ordinals updates left dead once they outnumber the live ones and the threshold, answering the same', () => {
    const sut = smallIndex();
    const items = many(12, (i) => itemState({ name: `Widget ${i}` }));
    sut.apply(items);
    sut.apply(items.map((item) => ({ ...item, description: 'updated once', version: 2 })));
    // 12 dead ordinals beside 12 live ones: not more than the live ones yet
    expect(sut.compacted()).toBe(sut);
    sut.apply(items.map((item) => ({ ...item, description: 'updated twice', version: 3 })));
    const compacted = sut.compacted();
    expect(compacted).not.toBe(sut);
    expect(compacted.search(query({ q: 'widget', limit: 5 }))).toEqual(sut.search(query({ q: 'widget', limit: 5 })));
    expect(compacted.generation).toBeGreaterThan(sut.generation);
  });

  it('answers the same after a rebuild, and still refuses older versions', () => {
    const sut = new MemoryIndex();
    const item = itemState({ name: 'Kept Item' });
    sut.apply([item, itemState({ name: 'Gone Item' })]);
    sut.apply([{ ...item, name: 'Kept Item Renamed', version: 2 }]);
    const rebuilt = sut.rebuilt();
    expect(rebuilt.search(query({ q: 'kept' }))).toEqual(sut.search(query({ q: 'kept' })));
    expect(rebuilt.apply([{ ...item, version: 1 }])).toBe(0);
    expect(rebuilt.generation).toBeGreaterThan(sut.generation);
  });

  it('serves every field of every item however few served items it keeps, and after an update', () => {
    const kept = new MemoryIndex({ ...SMALL_THRESHOLDS, servedItemsKept: 2 });
    const reference = new MemoryIndex({ servedItemsKept: 1_000 });
    const items = many(9, (i) =>
      itemState({
        name: `Gizmo ${i}`,
        tags: i % 2 ? ['red', 'blue'] : ['red'],
        details: {
          publisher: i % 3 ? 'acme' : null,
          version: `1.${i}.0`,
          license: 'MIT',
          repositoryUrl: null,
          homepageUrl: `https://gizmo.example/${i}`,
          downloads: i * 10,
        },
      }),
    );
    for (const sut of [kept, reference]) sut.apply(items);
    const page = (sut: MemoryIndex) => sut.search(query({ q: 'gizmo', limit: 9 }));
    // three pages: the small index lets go of items between (and within) them and builds them again
    for (let round = 0; round < 3; round++) {
      const served = page(kept);
      expect(served).toEqual(page(reference));
      expect(JSON.parse(served.itemsJson as string)).toEqual(served.items);
    }
    const gizmo3 = page(kept).items.find((item) => item.name === 'Gizmo 3');
    expect(gizmo3).toEqual(
      expect.objectContaining({
        tags: ['red', 'blue'],
        publisher: null,
        version: '1.3.0',
        license: 'MIT',
        homepageUrl: 'https://gizmo.example/3',
        downloads: 30,
      }),
    );
    const renamed = { ...items[3]!, name: 'Gizmo Three', version: 2 };
    for (const sut of [kept, reference]) sut.apply([renamed]);
    expect(page(kept)).toEqual(page(reference));
    expect(page(kept).items.map((item) => item.name)).toContain('Gizmo Three');
  });
});
