/**
 * Runs a rebuild of the search read model from the system of record in the
 * background and records it in Postgres (ReindexJobRepository), so that any
 * replica can report it (`GET /admin/v1/reindex/:jobId`, the admin CLI's
 * `reindex`) and one job at most runs in the whole deployment. A replica
 * that stops mid-job leaves a heartbeat that ages: the job then reads as
 * failed, the engine's half-built index or table is dropped or cleared, and
 * the old one keeps serving, so running it again is the remedy.
 */
import { randomUUID } from 'node:crypto';
import type { CatalogItemState, Logger } from '@skills/common';
import type { ReindexProgress, SearchEngine } from '../engines/search-engine';
import type { ReindexJobRepository } from './reindex-job.repository';

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

/** How often the running replica writes progress, which is also its heartbeat. */
export const REINDEX_PROGRESS_MS = 2_000;

export interface ReindexJobsOptions {
  engine: SearchEngine;
  source: ItemSourceFactory;
  store: ReindexJobRepository;
  logger: Logger;
  progressMs?: number;
}

export class ReindexJobs {
  private running: { id: string; done: Promise<void>; abort: AbortController } | undefined;
  private readonly logger: Logger;

  constructor(private readonly options: ReindexJobsOptions) {
    this.logger = options.logger.child({ component: 'reindex' });
  }

  /** Starts a job, or throws ConflictError while one runs in any replica. */
  async start(): Promise<ReindexJobView> {
    const job = await this.options.store.start(randomUUID());
    const abort = new AbortController();
    const done = this.run(job.id, abort.signal).finally(() => {
      this.running = undefined;
    });
    this.running = { id: job.id, done, abort };
    return job;
  }

  get(id: string): Promise<ReindexJobView | undefined> {
    return this.options.store.get(id);
  }

  /** Resolves once no job runs in this replica. */
  async idle(): Promise<void> {
    await this.running?.done;
  }

  /** Shutdown: stops reading the source; the engine abandons the new index, the job is recorded failed. */
  async close(): Promise<void> {
    this.running?.abort.abort(new Error('shutting down'));
    await this.idle();
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    const { engine, source, store } = this.options;
    const log = this.logger.child({ jobId: id });
    log.info('reindex started');
    const progress: ReindexProgress = { indexed: 0 };
    const beat = setInterval(() => {
      store
        .progress(id, progress.indexed, progress.total)
        .catch((err: unknown) => log.warn({ error: explain(err) }, 'could not record reindex progress'));
    }, this.options.progressMs ?? REINDEX_PROGRESS_MS);
    let outcome: Parameters<ReindexJobRepository['finish']>[1];
    try {
      const result = await engine.reindex(source(signal), (p) => Object.assign(progress, p));
      outcome = { status: 'succeeded', indexed: result.indexed, total: result.total ?? progress.total };
      log.info({ indexed: result.indexed }, 'reindex succeeded');
    } catch (err) {
      outcome = { status: 'failed', indexed: progress.indexed, total: progress.total, error: explain(err) };
      // the reason only: driver errors carry whole requests, documents included
      log.error(
        { error: outcome.error, indexed: progress.indexed },
        'reindex failed; the previous read model keeps serving',
      );
    } finally {
      clearInterval(beat);
    }
    // if this write is lost, the job reads as abandoned (failed) once its heartbeat ages
    await store
      .finish(id, outcome)
      .catch((err: unknown) => log.error({ error: explain(err) }, 'could not record the end of the reindex'));
  }
}

/** The innermost cause says what went wrong (UpstreamError wraps the HTTP detail). */
function explain(err: unknown): string {
  let current: unknown = err;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
