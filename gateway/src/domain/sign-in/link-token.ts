/**
 * The secret of a one-time link: 32 random bytes, base64url (43
 * characters), stored only as its SHA-256. Sign-in links, password resets
 * and invitations (to sign up, or to a workspace) all use it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { InputError, type MessageKey } from '@skills/common';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashLinkToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** A new secret and the hash the store keeps of it. */
export function newLinkToken(): { token: string; tokenHash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashLinkToken(token) };
}

/** The hash of a well-formed token; anything else is 400 with `invalid` (a malformed token is never looked up). */
export function linkTokenHash(token: string | undefined, invalid: MessageKey = 'link.invalid'): Buffer {
  if (token === undefined || !TOKEN_PATTERN.test(token)) throw new InputError(invalid);
  return hashLinkToken(token);
}
