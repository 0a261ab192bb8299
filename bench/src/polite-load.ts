/**
 * Closed-loop clients that honour Retry-After, as the API asks its clients to
 * (docs/api.md): each of `connections` clients sends a request, waits for the
 * answer, and after a 503 waits Retry-After seconds, stretched by up to as
 * much again at random (jitter, so the shed clients do not all come back in
 * the same instant) before its next one. Autocannon cannot wait per
 * connection, so this loop drives undici's pool directly.
 */
import { Pool } from 'undici';
import type { OverloadRecorder } from './overload';
import type { SearchRequest } from './query-mix';

export interface PoliteLoadOptions {
  origin: string;
  connections: number;
  durationSec: number;
  /** the next request's path and authorization */
  next(): { request: SearchRequest; authorization: string };
  recorder: OverloadRecorder;
  progress(text: string, done: boolean): void;
}

/** Runs the clients for `durationSec`; resolves with the requests that got no answer (connection errors, 10 s timeouts). */
export async function runPoliteLoad(options: PoliteLoadOptions): Promise<number> {
  const pool = new Pool(options.origin, {
    connections: options.connections,
    pipelining: 1,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const end = performance.now() + options.durationSec * 1000;
  let noAnswer = 0;
  let answered = 0;
  const ticker = setInterval(() => options.progress(`polite clients: ${answered} answers`, false), 1000);
  const client = async () => {
    while (performance.now() < end) {
      const { request, authorization } = options.next();
      const started = performance.now();
      try {
        const res = await pool.request({
          origin: options.origin,
          path: request.path,
          method: 'GET',
          headers: { authorization },
        });
        await res.body.dump();
        const retryAfter = res.headers['retry-after'];
        const retry = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
        options.recorder.record(res.statusCode, performance.now() - started, retry);
        answered += 1;
        if (res.statusCode === 503) await pause(Math.max(1, Number(retry) || 1) * 1000 * (1 + Math.random()), end);
      } catch {
        noAnswer += 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, client));
  } finally {
    clearInterval(ticker);
    await pool.close();
  }
  options.progress(`polite clients: ${answered} answers, ${noAnswer} without an answer`, true);
  return noAnswer;
}

/** Waits `ms`, but not past `end`: a client told to come back after the run has nothing more to send. */
function pause(ms: number, end: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, end - performance.now()))));
}
