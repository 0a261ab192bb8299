/**
 * Runs a joi schema and turns its first failure into a localised InputError.
 * joi's own texts are English only, so we map joi's error *types* to our
 * catalogue instead of forwarding its messages.
 */
import Joi from 'joi';
import { InputError } from './errors';
import type { MessageKey } from './i18n';

const byJoiType: Record<string, MessageKey> = {
  'any.required': 'validation.required',
  'object.unknown': 'validation.unknownField',
  'string.base': 'validation.string',
  'string.empty': 'validation.stringEmpty',
  'string.min': 'validation.stringMin',
  'string.max': 'validation.stringMax',
  'string.pattern.base': 'validation.pattern',
  'string.pattern.name': 'validation.pattern',
  'string.pattern.invert.name': 'validation.bidiControl',
  'string.guid': 'validation.uuid',
  'string.email': 'validation.email',
  'string.uri': 'validation.url',
  'string.uriCustomScheme': 'validation.url',
  'number.base': 'validation.number',
  'number.integer': 'validation.integer',
  'number.unsafe': 'validation.number',
  'number.infinity': 'validation.number',
  'number.min': 'validation.numberMin',
  'number.max': 'validation.numberMax',
  'any.only': 'validation.oneOf',
  'array.base': 'validation.array',
  'array.max': 'validation.arrayMax',
  'object.base': 'validation.object',
  'object.min': 'body.empty',
  'object.oxor': 'validation.exclusive',
  'string.isoDate': 'validation.isoDate',
  'release.semver': 'release.semver',
};

/**
 * Unicode's Bidi_Control characters (ALM, LRM, RLM, the embeddings,
 * overrides and isolates): inside a name they make it display in another
 * order than it reads ("Trojan Source"), so a name or description holding
 * one is refused rather than silently cleaned.
 */
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * A name or description people read: NFC-normalised (the same text typed
 * on two keyboards is stored the same), and 400 naming the field when it
 * holds a bidi control character. Chain `.trim()`, `.min()`, `.max()` after.
 */
export function displayText(): Joi.StringSchema {
  return Joi.string().normalize('NFC').pattern(BIDI_CONTROL, { name: 'bidi', invert: true });
}

/**
 * An email address as every form takes it: trimmed, any top-level domain (an
 * internal one included), at most 254 characters (RFC 5321's path limit).
 * Chain `.required()` or `.allow(null)` after.
 */
export function emailAddress(): Joi.StringSchema {
  return Joi.string().trim().email({ tlds: false }).max(254);
}

const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/**
 * A name people read that comes from elsewhere (a provider's claim), where
 * refusing would refuse the person, not the text: NFC-normalised, bidi
 * controls removed (the same set `displayText` refuses), trimmed, cut to
 * `max` code points; null when nothing is left or it is not a string.
 */
export function cleanDisplayText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = Array.from(value.normalize('NFC').replace(BIDI_CONTROLS, '').trim()).slice(0, max).join('').trim();
  return cleaned === '' ? null : cleaned;
}

const VALIDATE_PREFERENCES: Joi.ValidationOptions = {
  abortEarly: true,
  convert: true,
  errors: { wrap: { label: false } },
};
/**
 * Each schema with VALIDATE_PREFERENCES set on it, made once: joi merges
 * options given to `validate()` into its defaults (a deep clone) on every
 * call, but caches the merge of a schema's own preferences.
 */
const withPreferences = new WeakMap<Joi.Schema, Joi.Schema>();

/** Validates `value`; returns the converted value or throws InputError. */
export function validate<T>(schema: Joi.Schema<T>, value: unknown): T {
  let prepared = withPreferences.get(schema) as Joi.Schema<T> | undefined;
  if (!prepared) {
    prepared = schema.prefs(VALIDATE_PREFERENCES);
    withPreferences.set(schema, prepared);
  }
  const { error, value: converted } = prepared.validate(value);
  if (!error) return converted as T;
  const detail = error.details[0];
  if (!detail) throw new InputError('validation.invalid', { field: 'body' });
  const field = detail.path.length > 0 ? detail.path.join('.') : String(detail.context?.label ?? 'body');
  const key = byJoiType[detail.type] ?? 'validation.invalid';
  const ctx = detail.context ?? {};
  // the allowed values, or the fields of which only one may be given
  const listed: unknown = ctx.valids ?? ctx.peers;
  const values = Array.isArray(listed) ? listed.join(', ') : '';
  throw new InputError(key, { field, limit: String(ctx.limit ?? ''), values }, { cause: error });
}
