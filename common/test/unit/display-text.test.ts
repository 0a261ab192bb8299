/**
 * The two ways a display name is kept readable: `displayText` refuses bidi
 * control characters in what a person types, `cleanDisplayText` removes the
 * same set from what a provider sends. Both are checked against the whole
 * Unicode Bidi_Control set, written out here, not taken from the code.
 */
import { cleanDisplayText, displayText, validate } from '../../src/validation';

// Unicode's Bidi_Control property (PropList.txt): ALM, LRM, RLM, LRE..RLO, LRI..PDI
const BIDI_CONTROLS = [
  '\u061C',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];

describe('displayText', () => {
  it.each(BIDI_CONTROLS.map((c) => [c.codePointAt(0)?.toString(16), c]))('refuses U+%s inside a name', (_hex, c) => {
    expect(() => validate(displayText().trim().max(120), `invoice${c}fdp.exe`)).toThrow('validation.bidiControl');
  });

  it('keeps other text, NFC-normalised', () => {
    expect(validate(displayText(), 'Zoe\u0301 \u05E9\u05DC\u05D5\u05DD')).toBe('Zo\u00E9 \u05E9\u05DC\u05D5\u05DD');
  });
});

describe('cleanDisplayText', () => {
  it('removes every bidi control character, and what it removes is what displayText refuses', () => {
    const dirty = `Ev${BIDI_CONTROLS.join('')}il Person`;
    const cleaned = cleanDisplayText(dirty, 120);
    expect(cleaned).toBe('Evil Person');
    expect(validate(displayText(), cleaned)).toBe('Evil Person');
  });

  it('normalises to NFC, trims, and cuts to the limit in code points without splitting a pair', () => {
    expect(cleanDisplayText('  Zoe\u0301  ', 120)).toBe('Zo\u00E9');
    expect(cleanDisplayText('\u{1F600}'.repeat(5), 3)).toBe('\u{1F600}'.repeat(3));
  });

  it('gives null for a name of only bidi controls or spaces, and for a claim that is not a string', () => {
    expect(cleanDisplayText('\u200F \u202E', 120)).toBeNull();
    expect(cleanDisplayText('   ', 120)).toBeNull();
    expect(cleanDisplayText(42, 120)).toBeNull();
    expect(cleanDisplayText(undefined, 120)).toBeNull();
  });
});
