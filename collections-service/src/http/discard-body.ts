import type { IncomingMessage } from 'node:http';

/** How long an early answer waits for the rest of a body before giving up on it. */
export const DISCARD_BODY_MAX_MS = 10_000;

/**
 * Reads off and drops what is left of a request body, resolving once it has
 * all arrived. An answer sent while the client is still writing is followed by
 * Node closing the socket, and the client's pending write then fails with a
 * reset instead of showing our 400 or 413; body-parser waits the same way
 * before its own errors. Bounded, so a client that never finishes cannot hold
 * the answer back.
 */
export function discardBody(req: IncomingMessage, maxMs = DISCARD_BODY_MAX_MS): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}
