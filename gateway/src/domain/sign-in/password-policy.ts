/**
 * What a password must be (NIST SP 800-63B §3.1.1.2): long enough, not one
 * of the passwords attackers try first, not the account's own email; no
 * composition rules (they push people to predictable patterns). The list is
 * zxcvbn-ts's 49,000 most common passwords.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { InputError } from '@skills/common';

export const PASSWORD_MIN_LENGTH = 12;
/** argon2 hashes any length, but a megabyte password is a way to burn CPU. */
export const PASSWORD_MAX_LENGTH = 256;

let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/** Throws InputError naming the rule the password breaks. */
export function checkPassword(password: string, email: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    throw new InputError('validation.stringMin', { field: 'password', limit: PASSWORD_MIN_LENGTH });
  if (length > PASSWORD_MAX_LENGTH)
    throw new InputError('validation.stringMax', { field: 'password', limit: PASSWORD_MAX_LENGTH });
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || isRepeat(lower)) throw new InputError('password.common');
  const local = email.toLowerCase().split('@')[0] ?? '';
  if (local.length >= 4 && lower.includes(local)) throw new InputError('password.containsEmail');
}

/** One short run repeated ("abcabcabcabc", "aaaaaaaaaaaa"): as guessable as a listed password. */
function isRepeat(password: string): boolean {
  return /^(.{1,4})\1+$/u.test(password);
}
