/**
 * Deletes rows past their time, periodically, in batches (one short
 * statement each, so a backlog never holds a long transaction). Every
 * replica runs it; deleting is idempotent, so two replicas purging at once
 * only repeat each other's work.
 */
import type { Logger } from '@skills/common';

/** One kind of row to purge. */
export interface PurgeTask {
  /** what the log line says was deleted */
  name: string;
  /** Deletes at most `batch` rows past their time at `now`; returns how many it deleted. */
  deleteBatch(now: Date, batch: number): Promise<number>;
}

export interface PeriodicPurgeOptions {
  tasks: PurgeTask[];
  logger: Logger;
  /** pause between passes */
  intervalMs: number;
  batchSize?: number;
  now?: () => number;
}

export class PeriodicPurge {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly options: PeriodicPurgeOptions) {}

  /** Deletes every row past its time now, task by task; returns how many. */
  async pruneOnce(): Promise<number> {
    let total = 0;
    for (const task of this.options.tasks) total += await this.drain(task);
    return total;
  }

  /** First pass at once, then every interval. */
  start(): void {
    const pass = (): void => {
      this.running = this.pruneOnce().catch((err: unknown) => {
        this.options.logger.warn({ err }, 'purge pass failed; retrying after the interval');
        return 0;
      });
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(pass, this.options.intervalMs).unref();
      });
    };
    pass();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Batches until one comes back short: the backlog of this task is gone. */
  private async drain(task: PurgeTask): Promise<number> {
    const batch = this.options.batchSize ?? 5_000;
    const now = new Date((this.options.now ?? Date.now)());
    let total = 0;
    for (let deleted = batch; deleted === batch && !this.stopped;) {
      deleted = await task.deleteBatch(now, batch);
      total += deleted;
    }
    if (total > 0) this.options.logger.info({ deleted: total, rows: task.name }, 'rows past their time deleted');
    return total;
  }
}
