/**
 * The catalog's query in the address (catalog-query.ts): what a shared or
 * reloaded link shows is what was searched, whatever order its parameters
 * came in; what the API does not know is dropped; a filter goes back to
 * page 1; links from other pages land on the filter they name.
 */
import fc from 'fast-check';
import {
  SORTS,
  addressOf,
  catalogLink,
  queryOf,
  refine,
  withTag,
  withoutTag,
  type SearchQuery,
} from '../../src/catalog-query';

const read = (search: string) => queryOf(new URLSearchParams(search));

/** Any query the page can be in: text and tags with the characters an address must escape. */
const text = fc.string({
  minLength: 1,
  maxLength: 12,
  unit: fc.constantFrom('a', 'Z', '9', ' ', '&', '=', '+', '#', '%', '?', 'é', '/', '-'),
});
const query: fc.Arbitrary<SearchQuery> = fc.record(
  {
    q: text,
    category: text,
    type: fc.constantFrom('skill' as const, 'plugin' as const),
    tags: fc.uniqueArray(text, { maxLength: 4 }),
    sort: fc.constantFrom(...SORTS),
    page: fc.integer({ min: 1, max: 500 }),
    trust: fc.constantFrom('clean' as const, 'any' as const),
    verifiedPublisher: fc.boolean(),
  },
  { requiredKeys: ['tags', 'page', 'verifiedPublisher'] },
);

describe('the catalog query in the address', () => {
  it('reads back every query it writes, and writes one address whatever order a link put the parameters in', () => {
    const entries = (q: SearchQuery) => [...addressOf(q).entries()];
    // a link's own order: the filters shuffled, the tags in the order they were added (that order is the person's)
    const linked = query.chain((q) => {
      const others = entries(q).filter(([name]) => name !== 'tag');
      return fc.tuple(fc.constant(q), fc.shuffledSubarray(others, { minLength: others.length }));
    });
    fc.assert(
      fc.property(linked, ([q, shuffled]) => {
        expect(queryOf(addressOf(q))).toEqual(q);
        const link = new URLSearchParams([...shuffled, ...entries(q).filter(([name]) => name === 'tag')]);
        expect(addressOf(queryOf(link)).toString()).toBe(addressOf(q).toString());
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out the defaults, and reads a parameter the API does not know as absent', () => {
    expect(addressOf(read('?page=1&verifiedPublisher=false&q=&tag=')).toString()).toBe('');
    expect(
      read(
        '?sort=cheapest&type=widget&trust=malicious&page=-2&verifiedPublisher=yes&tag=pdf&tag=pdf&tag=&utm_source=x',
      ),
    ).toEqual({
      tags: ['pdf'],
      page: 1,
      verifiedPublisher: false,
    });
    expect(read('?page=2.5').page).toBe(1);
    expect(read('?page=3&sort=popular&type=plugin&trust=clean').page).toBe(3);
  });

  it('goes back to page 1 when the text, a filter or the sort changes, keeping the rest', () => {
    const onPage4 = read('?q=pdf&category=security&tag=tls&page=4');
    expect(addressOf(refine(onPage4, { category: 'testing' })).toString()).toBe('q=pdf&category=testing&tag=tls');
    expect(addressOf(refine(onPage4, { category: undefined, sort: 'name' })).toString()).toBe(
      'q=pdf&tag=tls&sort=name',
    );
    expect(addressOf({ ...onPage4, page: 5 }).toString()).toBe('q=pdf&category=security&tag=tls&page=5');
  });

  it('adds a tag once and removes one tag, the others staying in their order', () => {
    expect(withTag(['tls', 'pdf'], 'docker')).toEqual(['tls', 'pdf', 'docker']);
    expect(withTag(['tls', 'pdf'], 'tls')).toEqual(['tls', 'pdf']);
    expect(withTag(undefined, 'tls')).toEqual(['tls']);
    expect(withoutTag(['tls', 'pdf', 'docker'], 'pdf')).toEqual(['tls', 'docker']);
  });

  it('links to the catalog filtered as another page asks, its text escaped', () => {
    expect(catalogLink({ q: 'tables' })).toBe('/catalog?q=tables');
    expect(read(catalogLink({ tags: ['c++ & go'] }).split('?')[1] ?? '').tags).toEqual(['c++ & go']);
    expect(read(catalogLink({ category: 'data-engineering' }).split('?')[1] ?? '').category).toBe('data-engineering');
    expect(catalogLink({})).toBe('/catalog');
  });
});
