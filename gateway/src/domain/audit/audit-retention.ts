/**
 * Deletes audit records older than the retention, periodically, in batches
 * (domain/sign-in/periodic-purge.ts).
 */
import type { Logger } from '@skills/common';
import type { AuditLog } from './audit';
import { PeriodicPurge } from '../sign-in/periodic-purge';

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

export class AuditRetention extends PeriodicPurge {
  constructor(options: AuditRetentionOptions) {
    const { audit, retentionDays, ...rest } = options;
    super({
      ...rest,
      tasks: [
        {
          name: 'audit records past retention',
          deleteBatch: (now, batch) => audit.pruneOlderThan(new Date(now.getTime() - retentionDays * DAY_MS), batch),
        },
      ],
    });
  }
}
