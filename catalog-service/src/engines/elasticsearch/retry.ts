/**
 * Retry with exponential backoff for whole Elasticsearch requests. The
 * client's own retry covers 502/503/504 without any wait and never 429, so
 * the engine turns it off (maxRetries: 0) and uses this one policy instead.
 */
export interface RetryPolicy {
  /** retries after the first attempt */
  retries: number;
  /** first wait; doubles each time, with jitter, capped by maxDelayMs */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 5_000 };

/** Status of an error thrown by the client, when it carries one. */
export function statusOf(err: unknown): number | undefined {
  const status = (err as { meta?: { statusCode?: unknown } } | null)?.meta?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Status and message only, for the log: the client's errors carry the whole request, documents included. */
export function errorSummary(err: unknown): { status?: number; error: string } {
  return { status: statusOf(err), error: err instanceof Error ? err.message : String(err) };
}

/**
 * Worth retrying: the cluster is overloaded (429), failing (5xx), or could
 * not be reached (connection error or timeout). A 4xx other than 429 is our
 * request's fault and would fail again.
 */
export function isRetryable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'ConnectionError' || name === 'TimeoutError') return true;
  const status = statusOf(err);
  return status !== undefined && (status === 429 || status >= 500);
}

/** The wait before retry `attempt + 1`: exponential, capped, with jitter. */
export function delayFor(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export async function withRetry<T>(
  policy: RetryPolicy,
  operation: () => Promise<T>,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (err) {
      if (attempt >= policy.retries || !isRetryable(err)) throw err;
      onRetry?.(err, attempt + 1);
      await new Promise((resolve) => setTimeout(resolve, delayFor(policy, attempt)));
    }
  }
}
