/**
 * How the client talks HTTP: URL and headers of an operation, the `data`
 * envelope, ApiError for every non-2xx answer and UnreachableError when no
 * answer came, and the credentials: an API key (or the admin token, or a
 * scanner's) as a bearer, or a browser's session cookie.
 */
import { ApiError, UnreachableError } from './api-error';
import { OPERATIONS, expandPath, type OperationName } from './operations';
import type { Pagination } from './types';

/**
 * A browser session: the cookie travels by itself (same origin); the CSRF
 * token the server answered at sign-in goes back on every write, since a
 * cookie alone would also ride along on another site's forged request.
 */
export interface SessionCredentials {
  csrfToken?: string;
}

export type Credentials = { apiKey: string } | { session: SessionCredentials };

export interface TransportOptions {
  baseUrl: string;
  credentials: Credentials;
  language?: 'en' | 'fr';
  fetch?: typeof fetch;
}

/** Methods that change nothing: the server asks no CSRF token for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface Call {
  params?: Record<string, string>;
  /** an array value repeats its parameter (`tag=a&tag=b`) */
  query?: Record<string, string | number | readonly string[] | undefined>;
  body?: unknown;
  /** a body sent as is with its own type instead of JSON; a stream is sent as it is read (the NDJSON import) */
  raw?: { body: string | ReadableStream<Uint8Array>; contentType: string };
  headers?: Record<string, string>;
}

export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('no fetch available: pass options.fetch');
    // Called bare, never as this object's method: a browser's fetch throws "Illegal invocation" on any `this` but the window.
    this.fetchImpl = (input, init) => fetchImpl(input, init);
  }

  send<T>(name: OperationName, call: Call): Promise<{ data: T; headers: Headers }> {
    return this.sendTo<T>(OPERATIONS[name], call);
  }

  /** One operation given by its method and path template (the admin client's table). */
  async sendTo<T>(operation: { method: string; path: string }, call: Call): Promise<{ data: T; headers: Headers }> {
    const response = await this.request(operation, call);
    const payload = await readJson(response);
    if (!response.ok) throw toApiError(response, payload);
    if (!isObject(payload) || !('data' in payload)) {
      throw new ApiError(
        response.status,
        'Response is not a { data } envelope',
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return { data: payload.data as T, headers: response.headers };
  }

  /**
   * An operation that answers a document of its own rather than the `data`
   * envelope (the lockfile): its exact text, or undefined on 304.
   */
  async sendRaw(name: OperationName, call: Call): Promise<{ text: string; headers: Headers } | undefined> {
    const response = await this.request(OPERATIONS[name], call);
    if (response.status === 304) return undefined;
    if (!response.ok) throw toApiError(response, await readJson(response));
    return { text: await response.text(), headers: response.headers };
  }

  /** The address of an operation, for a page to link to (a download the browser makes with its cookie). */
  urlOf(name: OperationName, params: Record<string, string>): string {
    return this.baseUrl + expandPath(OPERATIONS[name].path, params);
  }

  private request(operation: { method: string; path: string }, call: Call): Promise<Response> {
    const { method, path } = operation;
    const url = new URL(this.baseUrl + expandPath(path, call.params ?? {}));
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...this.credentialHeaders(method),
      ...(this.options.language ? { 'Accept-Language': this.options.language } : {}),
      ...call.headers,
    };
    // `duplex` is what fetch asks of a streamed body; the DOM typings do not know it yet
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if ('session' in this.options.credentials) init.credentials = 'same-origin';
    if (call.raw) {
      headers['Content-Type'] = call.raw.contentType;
      init.body = call.raw.body;
      if (typeof call.raw.body !== 'string') init.duplex = 'half';
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(call.body);
    }
    return this.fetchImpl(url, init).catch((err: unknown) => {
      throw new UnreachableError(this.baseUrl, reasonOf(err), { cause: err });
    });
  }

  private credentialHeaders(method: string): Record<string, string> {
    const credentials = this.options.credentials;
    if ('apiKey' in credentials) return { Authorization: `Bearer ${credentials.apiKey}` };
    const token = credentials.session.csrfToken;
    return token && !SAFE_METHODS.has(method) ? { 'X-CSRF-Token': token } : {};
  }
}

/** The most telling part of a failed fetch: Node's error code (ECONNREFUSED) lives on its cause. */
function reasonOf(err: unknown): string {
  const { message, cause } = err as { message?: string; cause?: { code?: string; message?: string } };
  return cause?.code ?? cause?.message ?? message ?? String(err);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(response: Response, payload: unknown): ApiError {
  const message =
    isObject(payload) && typeof payload.error === 'string'
      ? payload.error
      : `HTTP ${response.status} ${response.statusText}`.trim();
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    message,
    response.headers.get('x-request-id') ?? undefined,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** Follows a paged list from page 1 until `hasMore` is false. */
export async function allPages<C>(
  load: (page: number) => Promise<{ items: C[]; pagination: Pagination }>,
): Promise<C[]> {
  const all: C[] = [];
  for (let page = 1; ; page++) {
    const { items, pagination } = await load(page);
    all.push(...items);
    if (!pagination.hasMore) return all;
  }
}
