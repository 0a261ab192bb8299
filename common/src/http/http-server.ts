import { createServer, type RequestListener, type Server } from 'node:http';

/** How long a client may take to send its request; see `createHttpServer`. */
export interface HttpServerTimeouts {
  /** all request headers must arrive within this time */
  headersTimeoutMs: number;
  /** the whole request, body included, must arrive within this time */
  requestTimeoutMs: number;
}

/**
 * Defaults for every process. 60 s for a whole request leaves a 50 MB import
 * room on a slow link; 10 s for headers is far above any honest client.
 */
export const DEFAULT_HTTP_TIMEOUTS: Readonly<HttpServerTimeouts> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
});

/**
 * An HTTP server that cuts off slow clients (slowloris: headers then a body
 * trickled byte by byte) instead of holding a socket and a parser forever.
 * Node enforces these timeouts only when it sweeps its connections, every
 * `connectionsCheckingInterval` (30 s by default), so the sweep runs at a
 * quarter of the shortest timeout: a slow client is dropped within 1.25× the
 * limit. The answer is Node's own 408 and the socket is closed.
 */
export function createHttpServer(handler: RequestListener, timeouts: { headersTimeoutMs?: number; requestTimeoutMs?: number } = {}): Server {
  const requestTimeoutMs = timeouts.requestTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs;
  const headersTimeoutMs = timeouts.headersTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs;
  // Node refuses headersTimeout > requestTimeout (when the latter is set).
  const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  return createServer(
    {
      headersTimeout,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.floor(headersTimeout / 4)),
    },
    handler,
  );
}
