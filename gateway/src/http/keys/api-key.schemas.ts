/** The bodies that make and roll keys, the same for the console and the admin API. */
import Joi from 'joi';
import { displayText } from '@skills/common';
import { SCOPES, type Scope } from '../../domain/keys/scopes';
import { LONGEST_KEY_DAYS } from '../../domain/keys/api-key.service';

export interface KeyBody {
  name?: string | null;
  scopes?: Scope[];
  expiresInDays?: number | null;
  /** ISO 8601; the admin API's exact end, converted to a Date by the schema */
  expiresAt?: Date;
  workspaceId?: string | null;
}

const name = displayText().trim().min(1).max(120);
const scopes = Joi.array()
  .items(Joi.string().valid(...SCOPES))
  .min(1)
  .max(SCOPES.length)
  .unique();
/** whole days; null: never expires (refused when the operator set a maximum) */
const expiresInDays = Joi.number().integer().min(1).max(LONGEST_KEY_DAYS).allow(null);

/** The admin API: every field optional (no scopes: every scope); an end as days or as an instant, not both. */
export const adminKeySchema = Joi.object<KeyBody>({
  name: name.allow(null),
  scopes,
  expiresInDays,
  expiresAt: Joi.string()
    .isoDate()
    .custom((value: string) => new Date(value)),
}).oxor('expiresInDays', 'expiresAt');

/** The console: a person names the key and picks its scopes. */
/**
 * The console: a person names the key and picks its scopes, and may bind it
 * to a workspace they are a member of. A workspace id that is not a uuid
 * names no workspace: 404 like any id (docs/governance.md), not 400.
 */
export const ownKeySchema = Joi.object<KeyBody>({
  name: name.required(),
  scopes: scopes.required(),
  expiresInDays,
  workspaceId: Joi.string().max(100).allow(null),
});

/** Grace of the old key after a roll: 0 revokes it at once; at most a week. */
export const rollSchema = Joi.object<{ graceSeconds: number }>({
  graceSeconds: Joi.number().integer().min(0).max(604_800).required(),
});
