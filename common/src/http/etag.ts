/**
 * Entity tags (RFC 9110 §8.8.3): a strong tag is a hash of the exact bytes
 * of a representation, so equal bodies share a tag on every replica with no
 * state. The gateway tags public reads with it; collections-service tags a
 * collection with it and checks If-Match against the same hash.
 */
import { createHash } from 'node:crypto';
import type { Response } from 'express';

export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * True when `If-Match` allows a write on the representation tagged `etag`
 * (RFC 9110 §13.1.1): `*`, or a list holding that very tag. The comparison
 * is strong, so a `W/` tag never matches; a header that holds no tag at all
 * matches nothing.
 */
export function ifMatchHolds(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  for (const match of header.matchAll(ENTITY_TAG)) {
    if (match[1] === undefined && `"${match[2]}"` === etag) return true;
  }
  return false;
}

/** Sends `body` as JSON with the strong ETag of the very bytes sent. */
export function sendTaggedJson(res: Response, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.status(status).setHeader('ETag', strongEtag(bytes));
  res.type('application/json').send(bytes);
}
