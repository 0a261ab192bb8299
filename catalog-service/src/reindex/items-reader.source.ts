/**
 * The system of record, read for a reindex: collections-service's
 * `GET /internal/v1/items?after=<uuid>&limit=<n>`, page by page (keyset on the
 * item id, so pages stay stable while items change), with the items reader
 * token: a read-only credential for item states and nothing else. This
 * service holds no signing key and can act as no account and no admin.
 */
import { UpstreamError, callService, type CatalogItemState, type ServiceAnswer } from '@skills/common';

export interface ItemsReaderSourceOptions {
  /** collections-service base URL, e.g. http://collections:3002 */
  baseUrl: string;
  /** ITEMS_READER_TOKEN, the same value collections-service holds */
  token: string;
  /** items per page (collections-service allows 1..5000) */
  pageSize?: number;
  /** per request */
  timeoutMs?: number;
  /** tries per page when collections-service gives no answer or a 502/503/504 (common's callService) */
  attempts?: number;
  /** stops the reading between pages (shutdown) */
  signal?: AbortSignal;
}

interface ItemsPage {
  data: { items: CatalogItemState[]; next: string | null };
}

function isItemsPage(body: unknown): body is ItemsPage {
  const data = (body as { data?: { items?: unknown; next?: unknown } } | null)?.data;
  return Array.isArray(data?.items) && (data.next === null || typeof data.next === 'string');
}

/** One try: the answer, or an UpstreamError 503 (no answer) or 504 (none in time); shutdown rejects with its own reason. */
async function fetchOnce(options: ItemsReaderSourceOptions, path: string): Promise<ServiceAnswer> {
  let response: Response;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  try {
    response = await fetch(new URL(path, options.baseUrl), {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${options.token}`,
      },
      // shutdown cancels the request in flight too, not only the next one
      signal: AbortSignal.any([timeout, ...(options.signal ? [options.signal] : [])]),
    });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw timeout.aborted
      ? new UpstreamError(504, 'upstream.timeout', {}, { cause: err })
      : new UpstreamError(503, 'upstream.unavailable', {}, { cause: err });
  }
  const body: unknown = await response.json().catch(() => undefined);
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

async function fetchPage(options: ItemsReaderSourceOptions, path: string): Promise<ItemsPage> {
  const retry = { attempts: options.attempts ?? 3, baseDelayMs: 200, maxDelayMs: 2_000 };
  const { status, body } = await callService(() => fetchOnce(options, path), {
    method: 'GET',
    retry,
    signal: options.signal,
  });
  if (status < 200 || status > 299) {
    const cause = new Error(`collections-service answered ${status} to ${path}`);
    throw new UpstreamError(
      status >= 500 ? 503 : 502,
      status >= 500 ? 'upstream.unavailable' : 'upstream.badGateway',
      {},
      { cause },
    );
  }
  if (!isItemsPage(body))
    throw new UpstreamError(502, 'upstream.badGateway', {}, { cause: new Error(`unexpected body from ${path}`) });
  return body;
}

export async function* itemsReaderSource(options: ItemsReaderSourceOptions): AsyncIterable<CatalogItemState[]> {
  const limit = options.pageSize ?? 1000;
  let after: string | null = null;
  do {
    options.signal?.throwIfAborted();
    const path: string = `/internal/v1/items?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page = await fetchPage(options, path);
    if (page.data.items.length > 0) yield page.data.items;
    after = page.data.next;
  } while (after);
}
