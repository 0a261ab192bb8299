/**
 * Deletes audit records older than the retention, periodically, in batches
 * (one short statement each, so a backlog never holds a long transaction).
 * Every replica runs it; deleting is idempotent, so two replicas pruning at
 * once only repeat each other's work.
 */
import type { Logger } from '@skills/common';
import type { AuditLog } from './audit';

export interface AuditRetentionOptions {
  audit: AuditLog;
  logger: Logger;
  retentionDays: number;
  /** pause between passes */
  intervalMs: number;
  batchSize?: number;
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class AuditRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly options: AuditRetentionOptions) {}

  /** Deletes every record older than the retention now; returns how many. */
  async pruneOnce(): Promise<number> {
    const { audit, retentionDays } = this.options;
    const batch = this.options.batchSize ?? 5_000;
    const cutoff = new Date((this.options.now ?? Date.now)() - retentionDays * DAY_MS);
    let total = 0;
    for (let deleted = batch; deleted === batch && !this.stopped; ) {
      deleted = await audit.pruneOlderThan(cutoff, batch);
      total += deleted;
    }
    return total;
  }

  /** First pass at once, then every interval. */
  start(): void {
    const pass = (): void => {
      this.running = this.pruneOnce().catch((err: unknown) => {
        this.options.logger.warn({ err }, 'audit retention pass failed; retrying after the interval');
        return 0;
      });
      void this.running.then((deleted) => {
        if (deleted > 0) this.options.logger.info({ deleted }, 'audit records past retention deleted');
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
}
