/**
 * Every user-facing message, in English and French. Keys are stable; the
 * texts of `auth.invalidKey` and `auth.planWithoutApi` are fixed by the API
 * contract and must not change.
 */
import { accountMessages } from './messages-accounts';
import { catalogMessages } from './messages-catalog';
import { collectionMessages } from './messages-collections';
import { httpMessages } from './messages-http';
import type { Language } from './language';

export { negotiateLanguage, type Language } from './language';
export type MessageParams = Record<string, string | number>;

/** The parts of the catalogue, by the side of the service that speaks them; no key is in two (test/i18n). */
export const MESSAGE_PARTS = [httpMessages, accountMessages, catalogMessages, collectionMessages] as const;

const messages = { ...httpMessages, ...accountMessages, ...catalogMessages, ...collectionMessages };
export type MessageKey = keyof typeof messages;

/** The catalogue, for tests that check every key exists in both languages. */
export const messageCatalogue: Readonly<Record<MessageKey, Record<Language, string>>> = messages;

/** Renders a message in a language, replacing `{name}` placeholders. */
export function translate(key: MessageKey, lang: Language, params: MessageParams = {}): string {
  const template = messages[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    params[name] !== undefined ? String(params[name]) : `{${name}}`,
  );
}
