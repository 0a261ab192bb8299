/**
 * One call from a service to another (catalog-service reading
 * collections-service's items for a reindex, the gateway's own calls to
 * collections-service), under the one retry rule of such calls:
 *
 * - only an idempotent read (GET, HEAD) is asked again: a write may already
 *   have been applied;
 * - only when asking again may get another answer: no answer came (the
 *   connection was refused or dropped, the send threw an UpstreamError 503)
 *   or came too late (504), or the answer is 502, 503 or 504 (a replica
 *   restarting, a service shedding load, a proxy in between that gave up).
 *   Any other answer, a 500 included, is the answer; so is a 502 the caller
 *   raised itself for a body it could not read;
 * - at most `attempts` tries in all, waiting `baseDelayMs × 2^(n−1)` (at
 *   most `maxDelayMs`) after the n-th, and none once `signal` is aborted.
 *
 * What happens after the last try stays the caller's: it gets the last
 * answer, or the last error.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { UpstreamError } from '../errors';

/** An answer of the other service: its status, headers and parsed body. */
export interface ServiceAnswer<B = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: B;
}

export interface RetryRule {
  /** tries in all, the first included (1: never again) */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Three tries over about 300 ms: long enough for a replica's restart to be noticed by its balancer, short enough for a request path. */
const READ_RETRY: RetryRule = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

const IDEMPOTENT = new Set(['GET', 'HEAD']);
const RETRIED_STATUSES = new Set([502, 503, 504]);

export interface ServiceCallOptions {
  method: string;
  retry?: RetryRule;
  /** stops the asking again (shutdown); the send itself should honour it too */
  signal?: AbortSignal;
  /** waits `ms`; tests pass a fake */
  sleep?: (ms: number) => Promise<void>;
}

/** True for a failure that left no answer (UpstreamError 503, 504): the one kind of thrown error asked again. */
function isNoAnswer(err: unknown): boolean {
  return err instanceof UpstreamError && (err.status === 503 || err.status === 504);
}

/**
 * Sends through `send` (one try: it throws an UpstreamError 503 or 504
 * when no answer came) and asks again as the rule above says.
 */
export async function callService<B>(
  send: () => Promise<ServiceAnswer<B>>,
  options: ServiceCallOptions,
): Promise<ServiceAnswer<B>> {
  const rule = IDEMPOTENT.has(options.method.toUpperCase())
    ? (options.retry ?? READ_RETRY)
    : { ...READ_RETRY, attempts: 1 };
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt += 1) {
    const last = attempt >= rule.attempts || options.signal?.aborted === true;
    try {
      const answer = await send();
      if (last || !RETRIED_STATUSES.has(answer.status)) return answer;
    } catch (err) {
      if (last || !isNoAnswer(err)) throw err;
    }
    await sleep(Math.min(rule.baseDelayMs * 2 ** (attempt - 1), rule.maxDelayMs));
  }
}
