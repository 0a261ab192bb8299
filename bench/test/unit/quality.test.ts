import { rng } from '../../src/catalog-generator';
import type { ImportLine } from '../../src/import-line';
import {
  buildJudgments,
  formatQualityTable,
  NamePrefixes,
  prefixQuery,
  reciprocalRank,
  scoreQuality,
  typoQuery,
  type Judgment,
} from '../../src/quality';
import { CatalogWords, descriptionQuery, mixedQuery } from '../../src/quality-words';

const item = (slug: string, name: string, status: ImportLine['status'] = 'active', description = ''): ImportLine => ({
  slug,
  name,
  description,
  type: 'skill',
  category: 'c',
  status,
  tags: [],
});

describe('judgment sets', () => {
  const catalog = [
    item('react-wordcloud', 'Cyberblast React Wordcloud'),
    item('wordcloud-2', 'cyberblast react wordcloud'),
    item('tim', 'Tim Wx Sdk'),
    item('draft', 'Drafted Package', 'draft'),
    ...Array.from({ length: 50 }, (_, i) => item(`pkg-${i}`, `Package Number ${i} Helper`)),
  ];

  it('is deterministic, samples active items only, and counts namesakes as relevant', () => {
    const judgments = buildJudgments(catalog, 20);
    expect(buildJudgments(catalog, 20)).toEqual(judgments);
    const sets = (set: Judgment['set']) => judgments.filter((j) => j.set === set);
    expect(sets('exact')).toHaveLength(20);
    expect(sets('typo')).toHaveLength(20);
    expect(sets('prefix')).toHaveLength(20);
    expect(judgments.some((j) => j.target === 'draft')).toBe(false);
    const all = buildJudgments(catalog, 1_000);
    const exact = all.find((j) => j.set === 'exact' && j.target === 'react-wordcloud');
    expect(exact).toEqual({
      set: 'exact',
      q: 'Cyberblast React Wordcloud',
      target: 'react-wordcloud',
      relevant: ['react-wordcloud', 'wordcloud-2'],
    });
    // "Tim Wx Sdk": no word of 5 letters to misspell, a last word of 3 letters to cut
    expect(all.filter((j) => j.target === 'tim').map((j) => j.set)).toEqual(['exact']);
    expect(all.find((j) => j.set === 'prefix' && j.target === 'react-wordcloud')?.q).toBe('Cyberblast React Wordcl');
  });

  it('misspells one word of five letters or more and cuts the last word to 60 %, keeping three letters', () => {
    const next = rng(3);
    for (let n = 0; n < 50; n++) {
      const q = typoQuery('Tim Cyberblast Sdk', next) as string;
      expect(q).toMatch(/^Tim C\S{9} Sdk$/);
      expect(q).not.toBe('Tim Cyberblast Sdk');
    }
    expect(typoQuery('Tim Wx Sdk', next)).toBeUndefined();
    expect(prefixQuery('React Wordcloud')).toBe('React Wordcl');
    expect(prefixQuery('React Hook')).toBe('React Hoo');
    expect(prefixQuery('Axios')).toBe('Axi');
    expect(prefixQuery('Tim Wx Sdk')).toBeUndefined();
  });

  it('cuts a name only where the prefix tells it from every other name', () => {
    const names = new NamePrefixes([
      'Http Error',
      'Http Errors',
      'HTTP Errand',
      'Nacos',
      'Nack',
      'Eol',
      'Eolib',
      'React Wordcloud',
    ]);
    const cut = (name: string) => prefixQuery(name, (prefix) => names.identifies(prefix, name));
    expect(cut('React Wordcloud')).toBe('React Wordcl');
    // "Http Err" is also Http Errors and HTTP Errand: the cut grows until it is one name's alone
    expect(cut('HTTP Errand')).toBe('HTTP Erra');
    expect(cut('Nacos')).toBe('Naco');
    // Http Error is a prefix of Http Errors, and "Eol" of Eolib: no cut identifies them
    expect(cut('Http Error')).toBeUndefined();
    expect(cut('Eolib')).toBe('Eoli');
  });
});

describe('description judgments', () => {
  // "react", "parser", "fast" and "apps" are in every item; "hyperloop", "quasar" and "zeppelin" in the target and its twin only
  const filler = Array.from({ length: 40 }, (_, i) =>
    item(`filler-${i}`, `React Parser ${i}`, 'active', 'A fast react parser for the web apps'),
  );
  const target = item(
    'react-turbo',
    'React Turbo',
    'active',
    'Fast parsers for hyperloop quasar zeppelin apps, a React turbo',
  );
  const twin = item(
    'react-turbo-fork',
    'Turbo Fork',
    'active',
    'fast parsers for hyperloop quasar zeppelin apps, a react turbo ',
  );
  const catalog = [target, twin, ...filler];
  const words = new CatalogWords(catalog);
  const shares = { commonShare: 0.5, rareShare: 0.05 };

  it('asks for the rarest description words the name lacks, in the order the description says them', () => {
    expect(descriptionQuery(target, words, 2, shares)).toBe('hyperloop quasar');
    expect(descriptionQuery(target, words, 3, shares)).toBe('hyperloop quasar zeppelin');
    // the name's words and their stems ("parsers" is "parser"), stop words and the slug's words never count
    expect(descriptionQuery(target, words, 3, shares)).not.toMatch(/react|turbo|parser|for|the/);
    // a description of words every item has tells nothing apart; one word is not a query of this class
    expect(descriptionQuery(filler[0] as ImportLine, words, 3, shares)).toBeUndefined();
    expect(descriptionQuery(item('x', 'X', 'active', 'Hyperloop'), words, 2, shares)).toBeUndefined();
  });

  it('asks only what identifies the target: no other item may hold all the words but its namesakes and twins', () => {
    // a third item, neither namesake nor twin, holding all three rare words
    const rival = item('toys', 'Toys', 'active', 'Hyperloop, quasar and zeppelin toys');
    const withRival = new CatalogWords([...catalog, rival]);
    expect(descriptionQuery(target, withRival, 3, shares)).toBeUndefined();
    expect(descriptionQuery(twin, withRival, 2, shares)).toBeUndefined();
    expect(withRival.identifies('hyperloop quasar', target)).toBe(false);
    // without it the words identify the target: its twin holds them too, and counts as relevant
    expect(words.identifies('quasars zeppelin', target)).toBe(true);
    expect(descriptionQuery(target, words, 3, shares)).toBe('hyperloop quasar zeppelin');
  });

  it("mixes the name's most common word with the description's rarest", () => {
    expect(mixedQuery(target, words, shares)).toBe('react hyperloop');
    // no name word is common enough, or no description word rare enough
    expect(mixedQuery(twin, words, shares)).toBeUndefined();
    expect(mixedQuery(target, words, { commonShare: 0.5, rareShare: 0 })).toBeUndefined();
  });

  it('samples both classes from the catalog and counts an item of the same description as relevant', () => {
    const judgments = buildJudgments(catalog, 50, 1, shares);
    const description = judgments.filter((j) => j.set === 'description');
    expect(description.map((j) => j.target).sort()).toEqual(['react-turbo', 'react-turbo-fork']);
    expect(description.find((j) => j.target === 'react-turbo')).toEqual({
      set: 'description',
      q: 'hyperloop quasar zeppelin',
      target: 'react-turbo',
      relevant: ['react-turbo', 'react-turbo-fork'],
    });
    // two words or three, by the slug; the fork's slug holds "react", so nothing changes there
    expect(description.find((j) => j.target === 'react-turbo-fork')?.q).toBe('hyperloop quasar');
    const mixed = judgments.filter((j) => j.set === 'mixed');
    expect(mixed.map((j) => [j.target, j.q])).toEqual([['react-turbo', 'react hyperloop']]);
  });
});

describe('MRR@10', () => {
  it('scores the first relevant result within the first ten', () => {
    expect(reciprocalRank(['a', 'b', 'c'], ['c', 'b'])).toBe(1 / 2);
    expect(reciprocalRank(['a'], ['a'])).toBe(1);
    expect(reciprocalRank([...'abcdefghij', 'k'], ['k'])).toBe(0);
    expect(reciprocalRank([], ['k'])).toBe(0);
  });

  it('averages per set, counting a refused query as a miss', () => {
    const j = (set: Judgment['set'], target: string): Judgment => ({ set, q: target, target, relevant: [target] });
    const results = scoreQuality([
      { judgment: j('exact', 'a'), results: ['a'] },
      { judgment: j('exact', 'b'), results: ['x', 'b'] },
      { judgment: j('exact', 'c'), results: undefined },
      { judgment: j('exact', 'd'), results: ['x'] },
      { judgment: j('prefix', 'e'), results: ['x', 'y', 'y', 'e'] },
    ]);
    expect(results).toEqual([
      { set: 'exact', queries: 4, mrr10: 0.375, found10: 0.5, first: 0.25, errors: 1 },
      { set: 'prefix', queries: 1, mrr10: 0.25, found10: 1, first: 0, errors: 0 },
    ]);
    const table = formatQualityTable(results).split('\n');
    expect(table[0]).toMatch(/^set\s+queries\s+MRR@10\s+found@10\s+first\s+errors$/);
    expect(table[2]).toMatch(/^exact\s+4\s+0\.375\s+50\.0 %\s+25\.0 %\s+1$/);
  });
});
