import { BROAD_WORDS, broadCatalog } from '../../src/broad-catalog';
import { wordsOf } from '../../src/query-mix';

describe('broad vocabulary catalog', () => {
  it('puts every word in about 15 % of the items, and nothing but those words in names and descriptions', () => {
    const catalog = broadCatalog(20_000);
    const vocabulary = new Set<string>(BROAD_WORDS);
    const shares = BROAD_WORDS.map(
      (word) =>
        catalog.filter((item) => wordsOf(`${item.name} ${item.description}`).includes(word)).length / catalog.length,
    );
    for (const share of shares) expect(Math.abs(share - 0.15)).toBeLessThan(0.01);
    for (const item of catalog.slice(0, 500)) {
      for (const word of wordsOf(`${item.name} ${item.description}`)) expect(vocabulary.has(word)).toBe(true);
      expect(item.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(new Set(catalog.map((i) => i.slug)).size).toBe(catalog.length);
  });
});
