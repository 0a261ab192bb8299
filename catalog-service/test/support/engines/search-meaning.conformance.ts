/**
 * Search by meaning (docs/search.md "Search by intent"), the behaviour every
 * engine shows with a model: what a sentence finds that its words do not,
 * that names keep their place, and that filters, trust, totals and facets
 * apply to the fused set as they do to words. The engine is asked through
 * MeaningSearchEngine, as the service asks it, with a deterministic fake
 * model whose synonyms stand for a real model's sense of meaning.
 */
import type { CatalogItemState } from '@skills/common';
import { toSearchQuery, type SearchParams } from '../../../src/domain/search-request';
import type { SearchEngine, SearchResult } from '../../../src/engines/search-engine';
import { MeaningSearchEngine } from '../../../src/vectors/meaning-search-engine';
import { FakeTextEmbedder } from '../fake-text-embedder';
import { itemState } from './engine-items';
import { trusted } from './search-trust.conformance';
import { silentLogger } from '@skills/common/testing';

/** The fake model's sense of meaning: these words point where their synonym does. */
export const MEANING_SYNONYMS = {
  convert: 'turn',
  converter: 'turn',
  portable: 'pdf',
  documents: 'pdf',
  markup: 'markdown',
  md: 'markdown',
};

export interface MeaningEngineUnderTest {
  /** the engine as the service has it (its vectors from the model given) */
  engine: SearchEngine;
  /** drains the vector backlog (the service's backfill does it in the background) */
  drain(): Promise<void>;
  teardown(): Promise<void>;
}

export function describeMeaningConformance(
  name: string,
  setup: (embedder: FakeTextEmbedder) => Promise<MeaningEngineUnderTest>,
): void {
  describe(`${name} (search by meaning)`, () => {
    let sut: MeaningEngineUnderTest;
    let meaning: SearchEngine;
    const embedder = new FakeTextEmbedder({ synonyms: MEANING_SYNONYMS, dimensions: 384 });

    beforeEach(async () => {
      sut = await setup(embedder);
      meaning = new MeaningSearchEngine({ engine: sut.engine, embedder, logger: silentLogger() });
    });
    afterEach(async () => {
      await sut.teardown();
    });

    const search = (params: Partial<SearchParams>): Promise<SearchResult> =>
      meaning.search(toSearchQuery({ page: 1, limit: 20, ...params }, { showsUnscanned: true }));
    const names = async (params: Partial<SearchParams>) => (await search(params)).items.map((i) => i.name);
    const index = async (items: CatalogItemState[]) => {
      await sut.engine.apply(items);
      await sut.drain();
    };

    const pdfToMarkdown = () =>
      itemState({ name: 'Docsmith', description: 'Portable documents to markup', category: 'writing' });
    const unrelated = () =>
      itemState({ name: 'Weather Station', description: 'Reads barometric sensors', category: 'hardware' });

    it('finds by meaning what a sentence’s words do not hold, and says the search was hybrid', async () => {
      await index([pdfToMarkdown(), unrelated()]);
      const hybrid = await search({ q: 'turn a pdf into markdown' });
      expect(hybrid.items.map((i) => i.name)).toEqual(['Docsmith']);
      expect(hybrid.mode).toBe('hybrid');
      expect(hybrid.total).toBe(1);
      const lexical = await search({ q: 'turn a pdf into markdown', mode: 'lexical' });
      expect(lexical.items).toEqual([]);
      expect(lexical.mode).toBe('lexical');
    });

    it('runs a query of one or two words on its words alone, and says so', async () => {
      await index([pdfToMarkdown(), itemState({ name: 'Pdf Tools' })]);
      for (const q of ['pdf', 'pdf tools']) {
        const result = await search({ q });
        expect(result.items.map((i) => i.name)).toEqual(['Pdf Tools']);
        expect(result.mode).toBe('lexical');
      }
    });

    it('keeps an exact name first, and ranks an item holding the words and near in meaning before one only near', async () => {
      await index([
        // the name asked, its description far from the query's meaning
        itemState({ name: 'Pdf Markdown Kit', description: 'Prints invoices and receipts for small shops in town' }),
        // every word, and nearer in meaning than the name itself
        itemState({ name: 'Paperkit', description: 'Kit for portable documents to markup, a pdf and markdown kit' }),
        pdfToMarkdown(),
        unrelated(),
      ]);
      expect(await names({ q: 'pdf markdown kit' })).toEqual(['Pdf Markdown Kit', 'Paperkit', 'Docsmith']);
    });

    it('applies filters, trust and the policy to the neighbours as to the words, and counts totals and facets over both', async () => {
      await index([
        pdfToMarkdown(),
        itemState({ name: 'Md Press', description: 'Turns pdf into markup', category: 'publishing', tags: ['pdf'] }),
        itemState({
          name: 'Markup Thief',
          description: 'Turns pdf into markdown',
          category: 'writing',
          trust: trusted('suspicious'),
        }),
        itemState({
          name: 'Markup Evil',
          description: 'Turns pdf into markdown',
          category: 'writing',
          trust: trusted('malicious'),
        }),
        unrelated(),
      ]);
      const q = 'turn a pdf into markdown';
      expect((await names({ q })).sort()).toEqual(['Docsmith', 'Md Press']);
      expect(await names({ q, category: 'writing' })).toEqual(['Docsmith']);
      expect(await names({ q, tag: ['pdf'] })).toEqual(['Md Press']);
      expect((await names({ q, trust: 'any' })).sort()).toEqual(['Docsmith', 'Markup Thief', 'Md Press']);
      const faceted = await search({ q, trust: 'any', facets: ['category', 'trust'] });
      expect(faceted.total).toBe(3);
      expect(faceted.facets).toEqual({
        category: [
          { value: 'writing', count: 2 },
          { value: 'publishing', count: 1 },
        ],
        trust: [
          { value: 'unscanned', count: 2 },
          { value: 'suspicious', count: 1 },
        ],
      });
    });

    it('answers by meaning alone in semantic mode, even a word query', async () => {
      await index([pdfToMarkdown(), itemState({ name: 'Pdf Tools', description: 'Prints invoices' }), unrelated()]);
      const result = await search({ q: 'portable documents', mode: 'semantic' });
      expect(result.mode).toBe('semantic');
      expect(result.items.map((i) => i.name)).toEqual(['Docsmith', 'Pdf Tools']);
    });

    it('forgets an item’s old meaning once its text changes, and finds it by the new one', async () => {
      const item = pdfToMarkdown();
      await index([item]);
      expect(await names({ q: 'turn a pdf into markdown' })).toEqual(['Docsmith']);
      await index([{ ...item, description: 'Reads barometric sensors', version: 2 }]);
      expect(await names({ q: 'turn a pdf into markdown' })).toEqual([]);
      expect(await names({ q: 'barometric sensor readings' })).toEqual(['Docsmith']);
    });
  });
}
