import {
  IncomingMessage,
  ServerResponse,
  createServer,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { translate } from '../i18n';

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
 * limit. The socket is then answered 408 and closed.
 */
export function createHttpServer(
  handler: RequestListener,
  timeouts: { headersTimeoutMs?: number; requestTimeoutMs?: number } = {},
): Server {
  const requestTimeoutMs = timeouts.requestTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs;
  const headersTimeoutMs = timeouts.headersTimeoutMs ?? DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs;
  // Node refuses headersTimeout > requestTimeout (when the latter is set).
  const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.floor(headersTimeout / 4)),
      ...withPrototypesOf(handler),
    },
    handler,
  );
  server.on('clientError', answerClientError);
  return server;
}

/**
 * Requests Node refuses before our handler runs (unparseable, headers too
 * large, too slow) still get the `{ error }` envelope. The headers were not
 * parsed, so there is no Accept-Language to honour: English.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, key] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'Request Header Fields Too Large', 'request.headersTooLarge'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'Request Timeout', 'request.timeout'] as const)
        : ([400, 'Bad Request', 'request.malformed'] as const);
  const body = JSON.stringify({ error: translate(key, 'en') });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The host a local client uses to reach a server bound to `host`: loopback
 * for the wildcard addresses, brackets around an IPv6 literal.
 */
export function loopbackOf(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Request and response classes whose objects are born with an express
 * app's prototypes (`app.request`, `app.response`). Express gives every
 * request and response its prototypes with Object.setPrototypeOf, which
 * costs V8 the shapes of both objects and slows every later property read;
 * an object that has them already is left as it is. Measured on one bare
 * route: 56 µs of CPU a request through express, 19 µs so, 14 µs for
 * node:http alone. Any other handler gets Node's own classes.
 */
function withPrototypesOf(handler: RequestListener): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const app = handler as unknown as { request?: object; response?: object };
  if (typeof app.request !== 'object' || typeof app.response !== 'object') return {};
  // Node's two constructors are plain functions, called on the new object as a subclass would
  // (Reflect.construct with another new.target measured 5 times slower). Were they classes, Node's own.
  const incoming = IncomingMessage as unknown as (this: unknown, ...args: unknown[]) => void;
  const outgoing = ServerResponse as unknown as (this: unknown, ...args: unknown[]) => void;
  if (
    /^class\b/.test(Function.prototype.toString.call(incoming)) ||
    /^class\b/.test(Function.prototype.toString.call(outgoing))
  )
    return {};
  function Request(this: unknown, ...args: unknown[]): void {
    incoming.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: unknown, ...args: unknown[]): void {
    outgoing.apply(this, args);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
