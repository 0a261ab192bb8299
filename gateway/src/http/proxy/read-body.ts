import type { Request } from 'express';
import { InputError, PayloadTooLargeError } from '@skills/common';

/**
 * The whole request body, at most `limit` bytes (413 past it): bodies the
 * gateway signs are read before they are forwarded, so the principal can
 * carry their digest and the service can check it got those very bytes.
 */
export function readBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        reject(new PayloadTooLargeError('body.tooLarge', { limit: `${Math.round(limit / 1024)}kb` }));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err?: unknown) => {
      cleanup();
      reject(new InputError('body.invalidJson', {}, { cause: err }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
