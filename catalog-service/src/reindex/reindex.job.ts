/**
 * Runs a rebuild of the search read model from the system of record in the
 * background, one at a time, and keeps its progress for polling
 * (`GET /admin/v1/reindex/:jobId`, the admin CLI's `reindex`).
 * Progress lives in this process's memory: a restart forgets finished jobs
 * and abandons a running one (the engine drops its half-built index or
 * table, and the old one keeps serving), so running it again is the remedy.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, type CatalogItemState, type Logger } from '@skills/common';
import type { SearchEngine } from '../engines/search-engine';

export type ReindexStatus = 'running' | 'succeeded' | 'failed';

export interface ReindexJobView {
  id: string;
  status: ReindexStatus;
  /** items written to the new read model so far */
  indexed: number;
  /** items to write, when the source knows it */
  total?: number;
  startedAt: string;
  finishedAt?: string;
  /** why it failed (operator-facing, English) */
  error?: string;
}

/** Opens a fresh read of the system of record; reading stops when `signal` aborts. */
export type ItemSourceFactory = (signal: AbortSignal) => AsyncIterable<CatalogItemState[]>;

export interface ReindexJobsOptions {
  engine: SearchEngine;
  source: ItemSourceFactory;
  logger: Logger;
  /** finished jobs kept for polling */
  keep?: number;
  now?: () => Date;
}

export class ReindexJobs {
  private readonly jobs = new Map<string, ReindexJobView>();
  private running: { id: string; done: Promise<void>; abort: AbortController } | undefined;
  private readonly logger: Logger;
  private readonly now: () => Date;

  constructor(private readonly options: ReindexJobsOptions) {
    this.logger = options.logger.child({ component: 'reindex' });
    this.now = options.now ?? (() => new Date());
  }

  /** Starts a job, or throws ConflictError while another one runs. */
  start(): ReindexJobView {
    if (this.running) throw new ConflictError('reindex.alreadyRunning', { id: this.running.id });
    const job: ReindexJobView = { id: randomUUID(), status: 'running', indexed: 0, startedAt: this.now().toISOString() };
    this.remember(job);
    const abort = new AbortController();
    const done = this.run(job, abort.signal).finally(() => {
      this.running = undefined;
    });
    this.running = { id: job.id, done, abort };
    return { ...job };
  }

  get(id: string): ReindexJobView | undefined {
    const job = this.jobs.get(id);
    return job ? { ...job } : undefined;
  }

  /** Resolves once no job runs. */
  async idle(): Promise<void> {
    await this.running?.done;
  }

  /** Shutdown: stops reading the source; the engine abandons the new index. */
  async close(): Promise<void> {
    this.running?.abort.abort(new Error('shutting down'));
    await this.idle();
  }

  private async run(job: ReindexJobView, signal: AbortSignal): Promise<void> {
    const log = this.logger.child({ jobId: job.id });
    log.info('reindex started');
    try {
      const result = await this.options.engine.reindex(this.options.source(signal), (p) => {
        job.indexed = p.indexed;
        if (p.total !== undefined) job.total = p.total;
      });
      job.indexed = result.indexed;
      if (result.total !== undefined) job.total = result.total;
      job.status = 'succeeded';
      log.info({ indexed: job.indexed }, 'reindex succeeded');
    } catch (err) {
      job.status = 'failed';
      job.error = explain(err);
      // the reason only: driver errors carry whole requests, documents included
      log.error({ error: job.error, indexed: job.indexed }, 'reindex failed; the previous read model keeps serving');
    } finally {
      job.finishedAt = this.now().toISOString();
    }
  }

  private remember(job: ReindexJobView): void {
    this.jobs.set(job.id, job);
    const keep = this.options.keep ?? 20;
    for (const id of this.jobs.keys()) {
      if (this.jobs.size <= keep) break;
      if (this.jobs.get(id)?.status !== 'running') this.jobs.delete(id);
    }
  }
}

/** The innermost cause says what went wrong (UpstreamError wraps the HTTP detail). */
function explain(err: unknown): string {
  let current: unknown = err;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
