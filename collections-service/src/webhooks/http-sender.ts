/**
 * One attempt of one delivery: a POST with node's http/https, no redirects
 * followed (a 3xx fails), the connection made to the address the target
 * guard checked, and three bounds: the lookup (the resolver's own), the
 * connection once the address is known, and the whole attempt. A receiver
 * that accepts and never answers costs its own attempt `timeoutMs` at most,
 * and nothing of anyone else's (the dispatcher runs attempts side by side).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { HostResolver } from './host-resolver';
import { assertLiteralHostAllowed, guardedLookup, hostOf, type TargetPolicy } from './target-guard';
import type { AttemptOutcome } from './delivery.repository';

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** the whole attempt: lookup, connection, request and answer */
  timeoutMs: number;
  /** from the address being known (after the lookup) to the connection being made */
  connectTimeoutMs: number;
  targets: TargetPolicy;
  resolver: HostResolver;
}

function failure(error: string, statusCode: number | null = null): AttemptOutcome {
  return { ok: false, statusCode, error };
}

/** Destroys the request when its socket has not connected `ms` after it knows where to connect. */
function boundConnect(socket: Socket, literalHost: boolean, ms: number, fail: (err: Error) => void): void {
  if (!socket.connecting) return;
  let timer: NodeJS.Timeout | undefined;
  const start = () => (timer = setTimeout(() => fail(new Error(`no connection within ${ms} ms`)), ms));
  // a literal address is known at once; a name once the guarded lookup answered
  if (literalHost) start();
  else socket.once('lookup', start);
  socket.once('connect', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

export function sendOnce(options: SendOptions): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(options.url);
      assertLiteralHostAllowed(url, options.targets);
    } catch (err) {
      resolve(failure((err as Error).message));
      return;
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'POST',
      // no pooled sockets: every attempt resolves and checks the host again
      agent: false,
      lookup: guardedLookup(options.targets, options.resolver),
      headers: {
        ...options.headers,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(options.body),
        'User-Agent': 'skills-webhooks/1',
      },
    });
    const fail = (err: Error) => req.destroy(err);
    const timer = setTimeout(() => fail(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    const literalHost = isIP(hostOf(url)) !== 0;
    req.on('socket', (socket: Socket) => boundConnect(socket, literalHost, options.connectTimeoutMs, fail));
    req.on('response', (res: IncomingMessage) => {
      // The answer's body means nothing to us; it is drained so the socket closes.
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        resolve(
          status >= 200 && status < 300
            ? { ok: true, statusCode: status, error: null }
            : failure(`HTTP ${status}`, status),
        );
      });
      res.on('error', () => undefined);
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve(failure(err.message));
    });
    req.end(options.body);
  });
}
