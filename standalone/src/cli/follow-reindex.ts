/**
 * `reindex [jobId]`: starts a rebuild of the search index (or takes a job
 * already started) and follows it by polling GET /admin/v1/reindex/{id}, with
 * a progress bar, until it is no longer running. The job runs in
 * catalog-service; the CLI only watches, so stopping (Ctrl-C) or losing the
 * gateway never stops the job, and every such message names the job id.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Format, SingleBar, type Options, type Params } from 'cli-progress';
import { ApiError, UnreachableError, type ReindexJob, type SkillsAdminClient } from '@skills/client';

export type { ReindexJob };

/** The job ended `failed`; the message carries the API's reason. */
export class ReindexFailedError extends Error {
  constructor(readonly job: ReindexJob) {
    super(`reindex failed: ${job.error ?? 'no reason given'}`);
    this.name = 'ReindexFailedError';
  }
}

/** Following was stopped (Ctrl-C); the job itself goes on. */
export class FollowStoppedError extends Error {
  constructor(readonly jobId: string) {
    super(`stopped following reindex job ${jobId}; the job keeps running on the server. ${followAgain(jobId)}`);
    this.name = 'FollowStoppedError';
  }
}

export interface FollowReindexOptions {
  /** where the bar is drawn; the CLI uses stderr so stdout stays the result */
  stream?: NodeJS.WritableStream;
  /** pause between polls (default 500 ms); also the base of the retry backoff */
  intervalMs?: number;
  /** transient failures in a row (network, 5xx) tolerated before giving up (default 5) */
  retries?: number;
  /** waits `ms`; rejects or resolves early when `signal` aborts (tests pass a fake) */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** aborting stops following (the CLI wires Ctrl-C to it) */
  signal?: AbortSignal;
}

const DEFAULT_INTERVAL_MS = 500;
const DEFAULT_RETRIES = 5;
// Long enough to ride out replicas restarting behind the gateway, short enough
// that a gateway which is really gone is reported within half a minute.
const MAX_BACKOFF_MS = 10_000;

const followAgain = (id: string) => `Follow it again with: npm run admin -- reindex ${id}`;

/** No answer, or a 5xx (a gateway or replica restarting), may pass; a 4xx (404: unknown job) will not. */
const isTransient = (err: unknown): err is ApiError | UnreachableError =>
  err instanceof UnreachableError || (err instanceof ApiError && err.status >= 500);

/** The same failure, its message ending with `note`. */
function noted(err: ApiError | UnreachableError, note: string): Error {
  const message = `${err.message} ${note}`;
  if (err instanceof ApiError) return new ApiError(err.status, message, err.requestId, err.retryAfter);
  return new Error(message, { cause: err });
}

const defaultSleep = (ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal });

function jobOf(job: ReindexJob | undefined): ReindexJob {
  if (!job?.id) throw new Error('unexpected answer from the reindex API: no job');
  return job;
}

/**
 * Starts a reindex (no `jobId`) or takes `jobId`, and polls it until it ends.
 * Resolves to the succeeded job; rejects with ReindexFailedError, with the
 * ApiError of a non-transient answer (404 names an unknown job), or with
 * FollowStoppedError once `signal` aborts.
 */
export async function followReindex(
  client: SkillsAdminClient,
  jobId: string | undefined,
  options: FollowReindexOptions = {},
): Promise<ReindexJob> {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const sleep = options.sleep ?? defaultSleep;
  const { signal } = options;
  const stream = options.stream ?? process.stderr;

  // The start is not retried: a lost 202 followed by a second POST would only
  // get a 409 naming the job, and the user can follow that one.
  let started: ReindexJob | undefined;
  let id: string;
  if (jobId === undefined) {
    started = jobOf(await client.startReindex());
    id = started.id;
    // shown at once: the id is what lets the user follow the job again later
    stream.write(`started reindex job ${id}\n`);
  } else {
    id = jobId;
  }
  const progress = new ReindexProgress(stream);

  const pause = async (ms: number) => {
    try {
      await sleep(ms, signal);
    } catch (err) {
      if (!signal?.aborted) throw err;
    }
    if (signal?.aborted) throw new FollowStoppedError(id);
  };

  const poll = async (): Promise<ReindexJob> => {
    for (let failures = 0; ;) {
      if (signal?.aborted) throw new FollowStoppedError(id);
      try {
        const job = await untilAborted(client.getReindex(id), signal, id);
        if (failures > 0) progress.retrying(undefined);
        return jobOf(job);
      } catch (err) {
        if (!isTransient(err)) throw err;
        failures += 1;
        if (failures > retries) {
          progress.retrying(undefined);
          throw noted(err, `(gave up after ${failures} tries; the job may still be running. ${followAgain(id)})`);
        }
        progress.retrying(err.message);
        await pause(Math.min(intervalMs * 2 ** failures, MAX_BACKOFF_MS));
      }
    }
  };

  try {
    let job = started ?? (await poll());
    for (;;) {
      progress.show(job);
      if (job.status === 'failed') throw new ReindexFailedError(job);
      if (job.status !== 'running') return job;
      await pause(intervalMs);
      job = await poll();
    }
  } finally {
    progress.stop();
  }
}

/**
 * Rejects with FollowStoppedError as soon as `signal` aborts, without waiting
 * for `promise` (the admin client takes no signal; the abandoned request just ends).
 */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, id: string): Promise<T> {
  if (!signal) return promise;
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new FollowStoppedError(id));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

interface ProgressPayload {
  /** absent while the job does not know its total: then no bar, only a count */
  total?: number;
  rate: string;
  note: string;
}

/**
 * The bar: percentage when the job has a `total`, otherwise a count and a
 * rate. Not a TTY (kubectl exec, CI logs): one line every 2 s instead.
 */
class ReindexProgress {
  private readonly bar: SingleBar;
  private started = false;
  private first: { at: number; indexed: number } | undefined;
  private readonly payload: ProgressPayload = { rate: '0 items/s', note: '' };

  constructor(private readonly stream: NodeJS.WritableStream) {
    this.bar = new SingleBar({
      format: formatLine,
      stream,
      hideCursor: true,
      // Keeps the last state on a terminal; off a terminal every line already
      // ends with a newline, and "clearing" there only skips an empty line.
      clearOnComplete: (stream as { isTTY?: boolean }).isTTY !== true,
      noTTYOutput: true,
    });
  }

  show(job: ReindexJob): void {
    // The rate is measured from this process's own observations, so a job
    // followed halfway and the server's clock do not distort it.
    const now = Date.now();
    this.first ??= { at: now, indexed: job.indexed };
    const seconds = (now - this.first.at) / 1000;
    this.payload.rate = `${seconds > 0 ? Math.round((job.indexed - this.first.indexed) / seconds) : 0} items/s`;
    this.payload.total = job.total;
    this.payload.note = job.status === 'running' ? '' : ` | ${job.status}`;
    if (!this.started) {
      this.bar.start(job.total ?? 0, job.indexed, this.payload);
      this.started = true;
      return;
    }
    if (job.total !== undefined) this.bar.setTotal(job.total);
    this.bar.update(job.indexed, this.payload);
  }

  retrying(reason: string | undefined): void {
    this.payload.note = reason === undefined ? '' : ` | retrying: ${reason}`;
    if (this.started) this.bar.update(this.payload);
    // before the first answer there is no bar yet to carry the note
    else if (reason !== undefined) this.stream.write(`retrying: ${reason}\n`);
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}

function formatLine(options: Options, params: Params, payload: ProgressPayload): string {
  const format =
    payload.total === undefined
      ? 'reindexing | {value} items | {rate}{note}'
      : 'reindexing [{bar}] {percentage}% | {value}/{total} items | {rate}{note}';
  return Format.Formatter({ ...options, format }, params, payload);
}
