/**
 * The one module that talks HTTP to the services: a keep-alive undici Pool
 * per upstream. Requests are forwarded with their method, path and query
 * unchanged, an allow-list of headers, the signed principal and the body as a
 * stream; answers are streamed back minus hop-by-hop headers. Failures map to
 * 503 (cannot connect), 504 (too slow) and 502 (anything else).
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { Pool, type Dispatcher } from 'undici';
import {
  AppError,
  OverloadedError,
  PayloadTooLargeError,
  UpstreamError,
  callService,
  contextOf,
  hasBody,
  retryAfterOnUnavailable,
  PRINCIPAL_EXPIRED_HEADER,
  PRINCIPAL_HEADER,
  type Logger,
  type ServiceAnswer,
} from '@skills/common';
import type { BufferedAnswer } from './answer-cache';
import { ifNoneMatchHits, strongEtag } from './conditional';

// If-None-Match stays here: the gateway answers conditional reads itself (see conditional.ts).
const FORWARDED_HEADERS = [
  'content-type',
  'content-length',
  'accept',
  'accept-language',
  'if-match',
  'idempotency-key',
];
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // between the services and the gateway only
  PRINCIPAL_EXPIRED_HEADER,
]);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface UpstreamOptions {
  name: string;
  /** origin of the service, e.g. http://127.0.0.1:8082 */
  url: string;
  /** headers and body timeout */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  connections?: number;
  logger: Logger;
}

export interface ForwardOptions {
  /** signs the principal; called again for the one retry after an expired principal */
  sign: () => string;
  /** the body, read whole (and signed) here; the request stream otherwise (the streamed import) */
  body?: string | Buffer;
  /** bytes a streamed body may carry before 413 */
  bodyLimit: number;
  /** a public read: its 200 JSON answer gets an ETag, this Cache-Control and 304 on If-None-Match */
  cacheControl?: string;
  /**
   * Runs once the service's status is known and before any of its answer
   * reaches the client: a write's audit record exists when the client sees
   * the write succeed.
   */
  beforeAnswer?: () => Promise<void>;
  /** the route's own bound on the service's answer, when longer than the pool's */
  answerWithinMs?: number;
  /** the service answers If-None-Match itself (route-table.ts `serviceConditional`): the header goes to it */
  serviceConditional?: boolean;
}

export interface UpstreamCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path and query, exactly as signed */
  path: string;
  /** signs the principal; called again for the one retry after an expired principal */
  sign: () => string;
  requestId: string;
  /** the caller's Accept-Language: the service's errors come back in its language */
  language?: string;
  /** JSON text */
  body?: string;
}

/** Counts body bytes and fails the stream past the limit (for bodies without Content-Length). */
function limitBytes(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) done(new PayloadTooLargeError('body.tooLarge', { limit: `${Math.round(limit / 1024)}kb` }));
      else done(null, chunk);
    },
  });
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

function isJson(type: string | string[] | undefined): boolean {
  return typeof type === 'string' && type.startsWith('application/json');
}

/**
 * The most of a public read's answer the gateway holds to compute its ETag
 * (docs/gateway.md "Conditional reads"). A strong ETag must be in the
 * headers, before the body, so a larger answer (a page of 50 collections of
 * up to 1,000 entries each can reach megabytes) is streamed untagged.
 */
export const ETAG_MAX_BYTES = 1024 * 1024;

/** Tags and sends an answer of at most `ETAG_MAX_BYTES`; streams a larger one through without holding it. */
async function sendTaggedOrStream(
  req: Request,
  res: Response,
  body: AsyncIterable<Buffer>,
  cacheControl: string,
): Promise<void> {
  const chunks = body[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) {
      sendConditional(req, res, Buffer.concat(held, size), cacheControl);
      return;
    }
    held.push(next.value);
    size += next.value.length;
    if (size > ETAG_MAX_BYTES) break;
  }
  res.setHeader('Cache-Control', cacheControl);
  await pipeline(async function* () {
    yield* held.splice(0);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }, res);
}

/** Sends a buffered 200 with its ETag, or a bodiless 304 when the client already holds it. */
export function sendConditional(
  req: Request,
  res: Response,
  body: Buffer,
  cacheControl: string,
  etag = strongEtag(body),
): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  if (ifNoneMatchHits(req.get('if-none-match'), etag)) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', String(body.length));
  res.end(body);
}

function forwardedHeaders(req: Request, requestId: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': requestId };
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** A service's 503 for an expired principal (common/src/http/principal-auth.ts). */
function principalExpired(status: number, headers: BufferedAnswer['headers']): boolean {
  return status === 503 && headers[PRINCIPAL_EXPIRED_HEADER] !== undefined;
}

/**
 * Sends under a fresh signature, and once more under another when the
 * service found the first expired (it waited too long somewhere): an expiry
 * is never the client's to see unless it happens twice. A streamed body is
 * spent by the first try (`resendable` false).
 */
async function sendSigned(
  send: (principal: string) => Promise<Dispatcher.ResponseData>,
  sign: () => string,
  resendable = true,
): Promise<Dispatcher.ResponseData> {
  const answer = await send(sign());
  if (!principalExpired(answer.statusCode, answer.headers)) return answer;
  await answer.body.dump();
  if (resendable) {
    const again = await send(sign());
    if (!principalExpired(again.statusCode, again.headers)) return again;
    await again.body.dump();
  }
  throw new OverloadedError(1, 'principal.expired');
}

/** A service's Retry-After in whole seconds (it sends seconds); 1 when it sent none that reads. */
function retryAfterOf(headers: BufferedAnswer['headers']): number {
  const value = headers['retry-after'];
  const seconds = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(seconds) && seconds > 0 ? seconds : 1;
}

/** The answer's status and end-to-end headers onto `res`; a service's 503 or 504 that names no Retry-After gets the default one. */
export function copyAnswerHead(res: Response, status: number, headers: BufferedAnswer['headers']): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    res.setHeader(name, value);
  }
  retryAfterOnUnavailable(res, status);
}

export class Upstream {
  private readonly pool: Pool;

  constructor(private readonly options: UpstreamOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.pool = new Pool(options.url, {
      connections: options.connections ?? 64,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      // A service that is down must be reported fast, not after the OS connect timeout.
      connect: { timeout: options.connectTimeoutMs ?? 1_000 },
    });
  }

  get name(): string {
    return this.options.name;
  }

  /** Streams `req` to the service and its answer back into `res`. */
  async forward(req: Request, res: Response, options: ForwardOptions): Promise<void> {
    const requestId = contextOf(res).requestId;
    const headers = forwardedHeaders(req, requestId);
    const ifNoneMatch = req.get('if-none-match');
    if (options.serviceConditional && ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    let body: string | Buffer | Readable | undefined;
    if (options.body !== undefined) {
      body = options.body;
      headers['content-length'] = String(Buffer.byteLength(options.body));
    } else if (hasBody(req)) {
      // undici destroys a failed request's body stream; handing it a piped
      // stream instead of `req` keeps the client socket alive for the 503.
      const limiter = limitBytes(options.bodyLimit);
      req.pipe(limiter);
      body = limiter;
    }

    const aborter = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) aborter.abort();
    };
    res.once('close', onClose);
    try {
      const timeouts =
        options.answerWithinMs !== undefined
          ? { headersTimeout: options.answerWithinMs, bodyTimeout: options.answerWithinMs }
          : {};
      const send = (principal: string) =>
        this.pool.request({
          method: req.method as 'GET',
          path: req.originalUrl,
          headers: { ...headers, [PRINCIPAL_HEADER]: principal },
          body,
          signal: aborter.signal,
          ...timeouts,
        });
      const answer = await sendSigned(
        send,
        options.sign,
        typeof body === 'string' || Buffer.isBuffer(body) || body === undefined,
      );
      copyAnswerHead(res, answer.statusCode, answer.headers);
      await options.beforeAnswer?.();
      if (
        options.cacheControl &&
        req.method === 'GET' &&
        answer.statusCode === 200 &&
        isJson(answer.headers['content-type'])
      ) {
        await sendTaggedOrStream(req, res, answer.body, options.cacheControl);
        return;
      }
      await pipeline(answer.body, res);
    } catch (err) {
      if (aborter.signal.aborted || res.destroyed) {
        this.options.logger.debug({ requestId, upstream: this.name }, 'client went away during proxying');
        return;
      }
      throw this.translate(err);
    } finally {
      res.off('close', onClose);
    }
  }

  /**
   * A bodiless request (a public read) and its whole answer, for callers
   * that keep it. Not cancelled when the client goes away: other requests
   * may be waiting on the same answer (answer-cache.ts).
   */
  async fetchWhole(req: Request, res: Response, sign: () => string): Promise<BufferedAnswer> {
    const requestId = contextOf(res).requestId;
    const headers = forwardedHeaders(req, requestId);
    const send = (principal: string) =>
      this.pool.request({
        method: req.method as 'GET',
        path: req.originalUrl,
        headers: { ...headers, [PRINCIPAL_HEADER]: principal },
      });
    try {
      const answer = await sendSigned(send, sign);
      return { status: answer.statusCode, headers: answer.headers, body: Buffer.from(await answer.body.arrayBuffer()) };
    } catch (err) {
      throw this.translate(err);
    }
  }

  /**
   * A JSON call of the gateway's own (http/workspaces/workspaces.routes.ts, not a proxied
   * request): the status and the parsed body. A read is asked again under
   * the retry rule of calls between services (common's callService: no
   * answer, 502, 503 or 504), each try signed anew. A body that is not JSON
   * is a 502 like any other invalid answer; the service's last 503 is the
   * caller's, with its Retry-After (OverloadedError), never a refusal to relay.
   */
  async call(options: UpstreamCall): Promise<{ status: number; body: unknown }> {
    const answer = await callService(() => this.callOnce(options), { method: options.method });
    // The service sheds load or is stopping: the caller is told when to come back, as a proxied request is.
    if (answer.status === 503) throw new OverloadedError(retryAfterOf(answer.headers));
    return { status: answer.status, body: answer.body };
  }

  /** One try of `call`; a 503's body is not read (a shedding service's, or a balancer's). */
  private async callOnce(options: UpstreamCall): Promise<ServiceAnswer> {
    const headers: Record<string, string> = { 'x-request-id': options.requestId, accept: 'application/json' };
    if (options.language) headers['accept-language'] = options.language;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    try {
      const send = (principal: string) =>
        this.pool.request({
          method: options.method,
          path: options.path,
          headers: { ...headers, [PRINCIPAL_HEADER]: principal },
          body: options.body,
        });
      const answer = await sendSigned(send, options.sign);
      if (answer.statusCode === 503) {
        await answer.body.dump();
        return { status: 503, headers: answer.headers, body: undefined };
      }
      const text = await answer.body.text();
      return {
        status: answer.statusCode,
        headers: answer.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** True when the service's /healthz answers 2xx within a second. */
  async healthy(): Promise<boolean> {
    try {
      const answer = await this.pool.request({
        method: 'GET',
        path: '/healthz',
        headersTimeout: 1_000,
        bodyTimeout: 1_000,
      });
      await answer.body.dump();
      return answer.statusCode >= 200 && answer.statusCode < 300;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private translate(err: unknown): AppError {
    if (err instanceof AppError) return err;
    const code = errorCode(err);
    const cause = { cause: err };
    if (code && TIMEOUT_CODES.has(code)) return new UpstreamError(504, 'upstream.timeout', {}, cause);
    if (code && UNAVAILABLE_CODES.has(code)) return new UpstreamError(503, 'upstream.unavailable', {}, cause);
    return new UpstreamError(502, 'upstream.badGateway', {}, cause);
  }
}
