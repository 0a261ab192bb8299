/**
 * Lost-update protection on collections (RFC 9110 §13.1.1): a collection's
 * detail answer carries a strong ETag, the hash of its exact bytes, and a
 * PATCH or DELETE sent with `If-Match` is applied only while the collection
 * would still be answered with one of the tags it names (else 412).
 */
import type { Request, Response } from 'express';
import { PreconditionFailedError, ifMatchHolds, sendTaggedJson, strongEtag } from '@skills/common';
import type { CollectionWithEntries, WritePrecondition } from '../domain/model';

/** The detail answer of a collection, as GET and PATCH send it. */
export function detailBody(view: unknown): { data: { collection: unknown } } {
  return { data: { collection: view } };
}

/** Sends a collection's detail answer with its ETag. */
export function sendCollection(res: Response, view: unknown): void {
  sendTaggedJson(res, 200, detailBody(view));
}

/** The check of the request's If-Match on the current collection, or none without the header. */
export function ifMatchOf(req: Request, view: (c: CollectionWithEntries) => unknown): WritePrecondition | undefined {
  const header = req.get('if-match');
  if (header === undefined) return undefined;
  return (current) => {
    if (header.trim() === '*') return;
    const etag = strongEtag(Buffer.from(JSON.stringify(detailBody(view(current)))));
    if (!ifMatchHolds(header, etag)) throw new PreconditionFailedError('collection.changed');
  };
}
