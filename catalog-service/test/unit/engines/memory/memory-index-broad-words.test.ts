/**
 * MemoryIndex ranking a query of several broad words: the early stops of its
 * ranking (small thresholds, small-thresholds.ts) give the pages of a
 * reference that reads every posting.
 */
import { MemoryIndex } from '../../../../src/engines/memory/memory-index';
import { TYPO_FALLBACK_BELOW } from '../../../../src/engines/search-engine';
import { matchQuery } from '../../../../src/engines/memory/query-matcher';
import { NO_DETAILS } from '@skills/common';
import { itemState } from '../../../support/engines/engine-items';
import {
  CAP,
  expectPagesAsIfEverythingWasRead,
  many,
  names,
  query,
  smallIndex,
} from '../../../support/engines/memory/memory-index-queries';

describe('MemoryIndex', () => {
  describe('several broad words, ranked without reading every posting', () => {
    // 160 items hold "widget" and "gadget" at many weights (names, descriptions of different lengths,
    // downloads); 40 hold only one of them. Names the query is or begins earn their bonus.
    const build = (): { sut: MemoryIndex; items: ReturnType<typeof itemState>[] } => {
      const sut = smallIndex();
      const items = [
        ...many(160, (i) =>
          itemState({
            name: i % 23 === 0 ? `Gadget Widget ${i}` : i % 9 === 0 ? `Widget Maker ${i}` : `Thing ${i}`,
            description: `a ${'long '.repeat(i % 9)}widget ${i % 3 ? 'with a gadget' : 'gadgets'} number ${i}`,
            category: i % 40 === 3 ? 'rare' : i % 10 === 1 ? 'some' : 'general',
            type: (i >> 1) % 2 ? 'plugin' : 'skill',
            details: { ...NO_DETAILS, downloads: (i * 7_919) % 100_000 },
          }),
        ),
        ...many(40, (i) => itemState({ name: `Gizmo ${i}`, description: i % 2 ? 'widget only' : 'gadget only' })),
        itemState({
          name: 'Widget Gadget',
          description: 'the one named exactly, its words diluted by a long description of many other words',
        }),
        // names "widget gadget" begins, downloaded more: their name-begins bonus beats the exact name's own
        ...many(3, () => itemState({ name: 'Widget Gadget Kit', details: { ...NO_DETAILS, downloads: 1_000_000 } })),
      ];
      sut.apply(items);
      return { sut, items };
    };

    it('gives the pages and counts of reading every match, with names the query is or begins first', () => {
      const { sut } = build();
      for (const q of ['widget gadget', 'gadget widget', 'widget gad', 'number widget'])
        expectPagesAsIfEverythingWasRead(sut, q);
      expectPagesAsIfEverythingWasRead(sut, 'widget gadget', { category: 'rare' });
      expectPagesAsIfEverythingWasRead(sut, 'widget gadget', { category: 'rare', type: 'plugin' });
      expect(names(sut, { q: 'widget gadget', limit: 1 })).toEqual(['Widget Gadget']);
      expect(names(sut, { q: 'gadget widget', limit: 7 }).every((name) => name.startsWith('Gadget Widget'))).toBe(true);
    });

    it('ranks a broad word under filters as if it had read every match, few or past the cap', () => {
      const { sut } = build();
      // "rare" holds 4 items (each match looked up), "some" 16 (the word read whole), "general" the rest (past the cap)
      const filtersTried = [
        { category: 'rare' },
        { category: 'rare', type: 'plugin' as const },
        { category: 'some' },
        { category: 'general' },
        { type: 'skill' as const },
      ];
      for (const filters of filtersTried) {
        for (const q of ['widget', 'gadget', 'wid']) expectPagesAsIfEverythingWasRead(sut, q, filters);
      }
    });

    it('ranks as if it had read every match when a word has a rare form beside a form in every item', () => {
      // "results" is in every item (it weighs next to nothing), "result" in 10: its bound would hold up every
      // other word's. "form" is in half the items (read whole after the rare forms), then in four in five (read by weight).
      for (const every of [2, 5]) {
        const sut = smallIndex();
        sut.apply(
          many(200, (i) =>
            itemState({
              name: i % 41 === 0 ? `Form Results ${i}` : `Item ${i}`,
              description: `${'many '.repeat(i % 7)}results ${i % every ? 'form' : 'other'} ${i % 20 === 0 ? 'result' : ''}`,
              details: { ...NO_DETAILS, downloads: (i * 7_919) % 100_000 },
            }),
          ),
        );
        for (const q of ['form results', 'results form']) expectPagesAsIfEverythingWasRead(sut, q);
      }
    });

    it('counts facets over every match of every word', () => {
      const { sut } = build();
      const facets = sut.search(
        query({ q: 'widget gadget', facets: ['category', 'type'], category: 'some', limit: 5 }),
      ).facets;
      const every = matchQuery(
        sut.store,
        query({ q: 'widget gadget', category: 'some' }),
        TYPO_FALLBACK_BELOW,
        true,
      ).docs.map((d) => sut.store.item(d));
      expect(facets?.category).toEqual([{ value: 'some', count: every.length }]);
      const plugins = every.filter((item) => item.type === 'plugin').length;
      expect(facets?.type).toEqual([
        { value: 'plugin', count: plugins },
        { value: 'skill', count: every.length - plugins },
      ]);
    });

    it('stays exact after deletes and updates reach the index', () => {
      const { sut, items } = build();
      // the long lists' bit sets exist from here on, and deletes and updates must keep them current
      for (const q of ['widget gadget', 'gadget only']) sut.search(query({ q }));
      sut.apply(
        items.map((item, i) =>
          i % 4 === 0
            ? { ...item, status: 'deleted' as const, version: 2 }
            : i % 7 === 0
              ? { ...item, description: 'gadget and widget, short', version: 2 }
              : item,
        ),
      );
      // "gadget only" counts fewer than the cap: a deleted item counted would show
      for (const q of ['widget gadget', 'gadget widget', 'widget gad', 'gadget only'])
        expectPagesAsIfEverythingWasRead(sut, q);
      // the item named exactly was the 201st: deleted with every fourth
      expect(names(sut, { q: 'widget gadget', limit: CAP })).not.toContain('Widget Gadget');
    });
  });
});
