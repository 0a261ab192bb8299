/**
 * The name keys the document store no longer keeps as strings (name-keys.ts)
 * and the exact-name table that replaced a Map of them (exact-name-table.ts),
 * each against the plain string or Map it stands for, on names and slugs
 * that mix ASCII, accents, letters whose lower case is longer (İ), digits,
 * punctuation and upper case.
 */
import fc from 'fast-check';
import { analyzeItem } from '../../../../src/domain/item-analysis';
import { ExactNameTable, type KeyKind } from '../../../../src/engines/memory/exact-name-table';
import { compareLowerCase, NameKeys } from '../../../../src/engines/memory/name-keys';

const UNITS = ['a', 'b', 'z', 'A', 'Z', ' ', '-', '_', '.', '1', 'é', 'É', 'İ', 'ß', 'Σ', '😀'];
const text = (max: number) => fc.array(fc.constantFrom(...UNITS), { maxLength: max }).map((units) => units.join(''));
const sign = (n: number) => Math.sign(n);

describe('compareLowerCase', () => {
  it('orders two names as their lower-case strings compare', () => {
    fc.assert(
      fc.property(text(8), text(8), (a, b) => {
        const la = a.toLowerCase();
        const lb = b.toLowerCase();
        expect(sign(compareLowerCase(a, b))).toBe(la < lb ? -1 : la > lb ? 1 : 0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('NameKeys', () => {
  it('gives the keys analysis gives, whether it keeps them or reads them from the name and slug', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: text(10), slug: text(10) }), { minLength: 1, maxLength: 6 }),
        text(4),
        (items, probe) => {
          const names: string[] = [];
          const slugs: string[] = [];
          const keys = new NameKeys(names, slugs);
          const analysed = items.map((item, doc) => {
            names[doc] = item.name;
            slugs[doc] = item.slug;
            const { exactKey, slugKey } = analyzeItem({ ...item, description: '', tags: [], downloads: 0 });
            keys.set(doc, exactKey, slugKey);
            return { exactKey, slugKey };
          });
          analysed.forEach(({ exactKey, slugKey }, doc) => {
            expect(keys.exactKeyOf(doc)).toBe(exactKey);
            expect(keys.slugKeyOf(doc)).toBe(slugKey);
            expect(keys.exactKeyLength(doc)).toBe(exactKey.length);
            expect(keys.slugKeyLength(doc)).toBe(slugKey.length);
            for (const key of [exactKey, slugKey, exactKey.slice(0, 3), probe, `${exactKey} `]) {
              expect(keys.exactKeyIs(doc, key)).toBe(exactKey === key);
              expect(keys.exactKeyStartsWith(doc, key)).toBe(exactKey.startsWith(key));
              expect(keys.slugKeyIs(doc, key)).toBe(slugKey === key);
            }
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('ExactNameTable', () => {
  it('finds the same live documents as a Map of keys through adds, removes and growth', () => {
    const KEYS = Array.from({ length: 40 }, (_, i) => `key ${i % 7} ${i}`);
    const op = fc.record({
      remove: fc.boolean(),
      doc: fc.nat(80),
      kind: fc.constantFrom<KeyKind>('name', 'slug'),
      key: fc.constantFrom(...KEYS),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 200, maxLength: 3000, size: 'max' }), (ops) => {
        const held = new Map<string, string>(); // `${doc}/${kind}` → key
        const table = new ExactNameTable((doc, kind, key) => held.get(`${doc}/${kind}`) === key);
        for (const { remove, doc, kind, key } of ops) {
          const slot = `${doc}/${kind}`;
          const current = held.get(slot);
          if (remove && current !== undefined) {
            table.remove(doc, kind, current);
            held.delete(slot);
          } else if (!remove && current === undefined) {
            held.set(slot, key);
            table.add(doc, kind, key);
          }
        }
        for (const key of KEYS) {
          const expected = [
            ...new Set([...held].filter(([, k]) => k === key).map(([slot]) => Number(slot.split('/')[0]))),
          ].sort((a, b) => a - b);
          expect(table.lookup(key).sort((a, b) => a - b)).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});
