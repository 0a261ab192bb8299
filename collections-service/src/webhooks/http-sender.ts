/**
 * One attempt of one delivery: a POST with node's http/https, no redirects
 * followed (a 3xx fails), a whole-attempt timeout, and the connection made to
 * the address the target guard checked.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertLiteralHostAllowed, guardedLookup, type TargetPolicy } from './target-guard';
import type { AttemptOutcome } from './delivery.repository';

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  targets: TargetPolicy;
}

function failure(error: string, statusCode: number | null = null): AttemptOutcome {
  return { ok: false, statusCode, error };
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
      lookup: guardedLookup(options.targets),
      headers: { ...options.headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(options.body), 'User-Agent': 'skills-webhooks/1' },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('response', (res: IncomingMessage) => {
      // The answer's body means nothing to us; it is drained so the socket closes.
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? { ok: true, statusCode: status, error: null } : failure(`HTTP ${status}`, status));
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
