import { generatedCatalog, rng } from '../../src/catalog-generator';
import type { ImportLine } from '../../src/import-line';
import {
  CLASS_WEIGHTS,
  intentMix,
  lexicalOnly,
  longTailMix,
  repeatedRequests,
  seedOf,
  swapAdjacent,
  wordsOf,
  type SearchRequest,
} from '../../src/query-mix';
import { queryTerms } from '@skills/catalog-service';

const paramsOf = (r: SearchRequest) => new URL(`http://x${r.path}`).searchParams;

describe('long-tail search mix', () => {
  const catalog = generatedCatalog(2_000);

  it('is the same for the same seed and differs for another', () => {
    const a = longTailMix(catalog, 1);
    const b = longTailMix(catalog, 1);
    const c = longTailMix(catalog, 2);
    const first = Array.from({ length: 50 }, () => a());
    expect(Array.from({ length: 50 }, () => b())).toEqual(first);
    expect(Array.from({ length: 50 }, () => c())).not.toEqual(first);
  });

  it('draws the classes by weight, each request fresh', () => {
    const next = longTailMix(catalog, 42);
    const mix = Array.from({ length: 20_000 }, () => next());
    for (const [cls, weight] of CLASS_WEIGHTS) {
      const share = mix.filter((r) => r.cls === cls).length / mix.length;
      expect(Math.abs(share - weight / 100)).toBeLessThan(0.015);
    }
    // a long tail: most queries are new
    expect(new Set(mix.map((r) => r.path)).size).toBeGreaterThan(mix.length * 0.5);
  });

  it('builds each class from one item of the catalog', () => {
    const next = longTailMix(catalog, 7);
    const words = new Set(catalog.flatMap((item) => wordsOf(`${item.name} ${item.description}`)));
    const categories = new Set(catalog.map((item) => item.category));
    let faceted = 0;
    for (let n = 0; n < 3_000; n++) {
      const r = next();
      const p = paramsOf(r);
      if (p.has('facets')) {
        expect(p.get('facets')).toBe('category,type');
        faceted++;
        p.delete('facets');
      }
      const q = p.get('q') ?? '';
      const limit = Number(p.get('limit'));
      expect([10, 20, 50]).toContain(limit);
      expect(Number(p.get('page') ?? 1) * limit).toBeLessThanOrEqual(10_000);
      switch (r.cls) {
        case 'one word':
          expect(words.has(q)).toBe(true);
          expect([...p.keys()].sort()).toEqual(['limit', 'q']);
          break;
        case 'two words': {
          const [a, b, more] = q.split(' ');
          expect(more).toBeUndefined();
          expect(a).not.toBe(b);
          expect(words.has(a as string) && words.has(b as string)).toBe(true);
          break;
        }
        case 'prefix':
          expect(q.length).toBeGreaterThanOrEqual(3);
          expect(q.length).toBeLessThanOrEqual(5);
          expect([...words].some((w) => w.startsWith(q) && w.length > q.length)).toBe(true);
          break;
        case 'typo':
          expect(q.length).toBeGreaterThanOrEqual(5);
          break;
        case 'filtered': {
          const item = catalog.find(
            (i) =>
              i.category === p.get('category') &&
              i.type === p.get('type') &&
              wordsOf(`${i.name} ${i.description}`).includes(q),
          );
          expect(item).toBeDefined();
          break;
        }
        case 'browse':
          expect(p.has('q')).toBe(false);
          expect(categories.has(p.get('category') ?? '')).toBe(true);
          expect(Number(p.get('page'))).toBeGreaterThanOrEqual(1);
          expect(Number(p.get('page'))).toBeLessThanOrEqual(50);
          break;
      }
    }
    // one request in five asks for facets (docs/performance.md "Method")
    expect(faceted / 3_000).toBeGreaterThan(0.17);
    expect(faceted / 3_000).toBeLessThan(0.23);
  });

  it('URL-encodes words of any script and spaces as %20', () => {
    const item: ImportLine = {
      slug: 'x',
      name: 'Café Crème',
      description: 'Über große Straße',
      type: 'skill',
      category: 'c-d',
      status: 'active',
      tags: [],
    };
    const next = longTailMix([item], 3);
    for (let n = 0; n < 200; n++) {
      const r = next();
      expect(r.path).toMatch(/^\/api\/v1\/skills\?[A-Za-z0-9%._~=&*'()!-]+$/);
      if (r.cls === 'two words') expect(r.path).toContain('%20');
    }
  });

  it('falls back to browsing when the catalog has no word a class needs', () => {
    const item: ImportLine = {
      slug: 'x',
      name: 'ab',
      description: '12 34',
      type: 'skill',
      category: 'c',
      status: 'active',
      tags: [],
    };
    const next = longTailMix([item], 3);
    const classes = new Set(Array.from({ length: 100 }, () => next().cls));
    expect(classes).toEqual(new Set(['browse']));
  });

  it('repeats a fixed handful, and seeds phases apart', () => {
    expect(repeatedRequests(catalog)).toHaveLength(10);
    expect(repeatedRequests(catalog)).toEqual(repeatedRequests(catalog));
    expect(seedOf('search long tail direct|64|run')).not.toBe(seedOf('search long tail direct|64|warm-up'));
  });

  it('misspells by swapping two different adjacent letters after the first', () => {
    const next = rng(1);
    for (let n = 0; n < 100; n++) {
      const typo = swapAdjacent('kubernetes', next) as string;
      expect(typo).not.toBe('kubernetes');
      expect(typo[0]).toBe('k');
      expect([...typo].sort().join('')).toBe([...'kubernetes'].sort().join(''));
    }
    expect(swapAdjacent('aaaaa', next)).toBeUndefined();
    expect(swapAdjacent('abcd', next)).toBeUndefined();
    expect(wordsOf('A D3 renderer, v2 2024 ok')).toEqual(['renderer']);
  });
});

describe('intent mix', () => {
  const catalog = generatedCatalog(500);

  it('asks fresh sentences long enough for the meaning side, drawn from the items’ descriptions in their order', () => {
    const next = intentMix(catalog, 3);
    const requests = Array.from({ length: 200 }, () => next());
    const sentences = requests.map((r) => paramsOf(r).get('q') ?? '');
    expect(requests.every((r) => r.cls === 'intent')).toBe(true);
    expect(new Set(sentences).size).toBeGreaterThan(190);
    // at least three words that are not stop words: the meaning side runs for every one (domain/hybrid-ranking.ts)
    expect(sentences.filter((q) => queryTerms(q).length < 3)).toEqual([]);
    const described = sentences.filter((q) =>
      catalog.some((item) => wordsOf(item.description, 2).join(' ').includes(q.split(' ').slice(-3).join(' '))),
    );
    expect(described.length).toBe(sentences.length);
  });

  it('asks the same mix on words alone with mode=lexical', () => {
    const [request] = [lexicalOnly(longTailMix(catalog, 5))()];
    expect(paramsOf(request!).get('mode')).toBe('lexical');
    expect(request!.cls).toBe(longTailMix(catalog, 5)().cls);
  });
});
