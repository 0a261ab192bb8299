import fc from 'fast-check';
import { isoTimeOf } from '../../../../src/engines/memory/iso-time';

describe('isoTimeOf', () => {
  it('spells every instant as toISOString does, leap days and centuries included', () => {
    const instant = fc.oneof(
      fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 }),
      // around the turns of days, months and leap years since 1970
      fc
        .tuple(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: -2, max: 2 }))
        .map(([day, ms]) => day * 86_400_000 + ms),
    );
    fc.assert(
      fc.property(instant, (ms) => expect(isoTimeOf(ms)).toBe(new Date(ms).toISOString())),
      { numRuns: 20_000 },
    );
  });
});
