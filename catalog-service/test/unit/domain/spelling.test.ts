import fc from 'fast-check';
import { editDistanceWithin, typoBudget } from '../../../src/domain/spelling';

/** The whole optimal string alignment table, no early exit: the reference. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('editDistanceWithin', () => {
  it('counts a swap of neighbours as one edit, and an insertion, deletion or substitution as one', () => {
    expect(editDistanceWithin('dokcer', 'docker', 1)).toBe(true);
    expect(editDistanceWithin('dcker', 'docker', 1)).toBe(true);
    expect(editDistanceWithin('doccker', 'docker', 1)).toBe(true);
    expect(editDistanceWithin('dacker', 'docker', 1)).toBe(true);
    expect(editDistanceWithin('dakcer', 'docker', 1)).toBe(false);
    expect(editDistanceWithin('dakcer', 'docker', 2)).toBe(true);
    expect(editDistanceWithin('kubernetes', 'kuberntees', 1)).toBe(true);
  });

  it('agrees with the full table on any pair of words, calls of every length following each other', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 90 });
    fc.assert(
      fc.property(
        word,
        word,
        fc.integer({ min: 0, max: 3 }),
        (a, b, max) => editDistanceWithin(a, b, max) === distance(a, b) <= max,
      ),
      { numRuns: 2000 },
    );
  });
});

describe('typoBudget', () => {
  it('gives no edit below 4 letters or with a digit, one from 4, two from 8', () => {
    expect([typoBudget('git'), typoBudget('node'), typoBudget('kubernetes'), typoBudget('s3sync')]).toEqual([
      0, 1, 2, 0,
    ]);
  });
});
