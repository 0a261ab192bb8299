import { MESSAGE_PARTS, messageCatalogue, negotiateLanguage, translate } from '../../src/i18n';

describe('the message catalogue', () => {
  it('holds each key in one part only, so no part silently replaces another’s text', () => {
    const keys = MESSAGE_PARTS.flatMap((part) => Object.keys(part));
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    expect(Object.keys(messageCatalogue)).toHaveLength(keys.length);
  });

  it('has every message in English and French, with the same placeholders', () => {
    for (const [key, texts] of Object.entries(messageCatalogue)) {
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect({ key, fr: names(texts.fr) }).toEqual({ key, fr: names(texts.en) });
      expect(texts.en.length * texts.fr.length).toBeGreaterThan(0);
    }
  });

  it('renders the language the request asked for, keeping the contract’s fixed texts', () => {
    expect(translate('auth.invalidKey', negotiateLanguage('fr-CA, en;q=0.5'))).toBe('Clé API invalide ou révoquée');
    expect(translate('auth.invalidKey', negotiateLanguage(undefined))).toBe('Invalid or revoked API key');
    expect(translate('webhook.unresolvable', 'en', { host: 'hooks.example' })).toContain('hooks.example');
  });
});
