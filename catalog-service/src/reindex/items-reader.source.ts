/**
 * The system of record, read for a reindex: collections-service's
 * `GET /internal/v1/items?after=<uuid>&limit=<n>`, page by page (keyset on the
 * item id, so pages stay stable while items change), with the items reader
 * token: a read-only credential for item states and nothing else. This
 * service holds no signing key and can act as no account and no admin.
 */
import { UpstreamError, type CatalogItemState } from '@skills/common';

export interface ItemsReaderSourceOptions {
  /** collections-service base URL, e.g. http://collections:3002 */
  baseUrl: string;
  /** ITEMS_READER_TOKEN, the same value collections-service holds */
  token: string;
  /** items per page (collections-service allows 1..5000) */
  pageSize?: number;
  /** per request */
  timeoutMs?: number;
  /** attempts per page on a 5xx or network failure */
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

async function fetchPage(options: ItemsReaderSourceOptions, path: string): Promise<ItemsPage> {
  let response: Response;
  try {
    response = await fetch(new URL(path, options.baseUrl), {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${options.token}`,
      },
      // shutdown cancels the request in flight too, not only the next one
      signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 30_000), ...(options.signal ? [options.signal] : [])]),
    });
  } catch (err) {
    throw new UpstreamError(503, 'upstream.unavailable', {}, { cause: err });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const cause = new Error(`collections-service answered ${response.status} to ${path}`);
    throw new UpstreamError(response.status >= 500 ? 503 : 502, response.status >= 500 ? 'upstream.unavailable' : 'upstream.badGateway', {}, { cause });
  }
  if (!isItemsPage(body)) throw new UpstreamError(502, 'upstream.badGateway', {}, { cause: new Error(`unexpected body from ${path}`) });
  return body;
}

/** A 4xx will not get better by asking again; a 5xx or a dropped connection may. */
async function fetchWithRetry(options: ItemsReaderSourceOptions, path: string): Promise<ItemsPage> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchPage(options, path);
    } catch (err) {
      const retryable = err instanceof UpstreamError && err.status === 503;
      if (!retryable || attempt >= attempts || options.signal?.aborted) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempt - 1)));
    }
  }
}

export async function* itemsReaderSource(options: ItemsReaderSourceOptions): AsyncIterable<CatalogItemState[]> {
  const limit = options.pageSize ?? 1000;
  let after: string | null = null;
  do {
    options.signal?.throwIfAborted();
    const path: string = `/internal/v1/items?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page = await fetchWithRetry(options, path);
    if (page.data.items.length > 0) yield page.data.items;
    after = page.data.next;
  } while (after);
}
