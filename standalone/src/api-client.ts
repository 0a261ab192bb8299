/**
 * A small fetch client for the gateway, shared by the admin CLI and the
 * launcher's seeding: it unwraps the `{ data }` envelope and turns an
 * `{ error }` answer into an ApiError carrying the API's own message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /** JSON body; sent with Content-Type: application/json */
  body?: unknown;
  /** raw body with its own content type (e.g. an ndjson stream) */
  raw?: { body: ReadableStream<Uint8Array> | string; contentType: string };
  headers?: Record<string, string>;
}

export class ApiClient {
  private readonly baseUrl: string;

  /** `token` is sent as `Authorization: Bearer <token>`: the admin token or an API key. */
  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Sends one request; resolves to the envelope's `data`, or rejects with ApiError. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...options.headers };
    let body: RequestInit['body'];
    if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    // `duplex` is required by undici for a streamed body; the DOM typings do not know it.
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body };
    if (body instanceof ReadableStream) init.duplex = 'half';
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new ApiError(0, `cannot reach ${this.baseUrl} (${reason})`);
    }
    const text = await response.text();
    let parsed: { data?: T; error?: string } | undefined;
    try {
      parsed = text ? (JSON.parse(text) as { data?: T; error?: string }) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      throw new ApiError(response.status, parsed?.error ?? `HTTP ${response.status} ${response.statusText}`);
    }
    return parsed?.data as T;
  }
}

/** Encodes one path segment (slugs and ids come from the command line). */
export const seg = (value: string): string => encodeURIComponent(value);
