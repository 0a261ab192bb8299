/**
 * Failed authentications in the audit trail, one record per client address
 * and reason per flush interval (with a count, the first and last time, and
 * the first request's id) rather than one per request: a flood of bad keys
 * must not become a flood of inserts, the very load the failure budget
 * spares the database. At most `maxAddresses` addresses are told apart per
 * interval; failures from more are counted together under `*`.
 * A failed password sign-in is counted the same way, per address and
 * target account (when the email is known), with the first request's user
 * agent: never the email typed nor the password.
 */
import type { Logger } from '@skills/common';
import type { AuditLog } from './audit';

export type AuthFailureReason = 'api_key' | 'admin_token' | 'scanner_token' | 'password';

/** What a failed console sign-in adds to the count's key and record. */
export interface FailureSubject {
  /** the account of the email typed, when there is one */
  targetAccountId?: string;
  userAgent?: string;
}

export interface AuthFailureAuditOptions {
  audit: AuditLog;
  logger: Logger;
  /** how often the counts are written */
  flushMs: number;
  maxAddresses?: number;
  now?: () => number;
}

interface Pending {
  address: string;
  reason: AuthFailureReason;
  count: number;
  firstAt: number;
  lastAt: number;
  requestId: string;
  targetAccountId?: string;
  userAgent?: string;
}

export class AuthFailureAudit {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: AuthFailureAuditOptions) {
    this.now = options.now ?? Date.now;
  }

  record(address: string, reason: AuthFailureReason, requestId: string, subject: FailureSubject = {}): void {
    const at = this.now();
    const full = this.pending.size >= (this.options.maxAddresses ?? 1_000);
    const key = `${reason} ${subject.targetAccountId ?? '-'} ${address}`;
    const slot = this.pending.has(key) || !full ? key : `${reason} *`;
    const entry = this.pending.get(slot);
    if (entry) {
      entry.count += 1;
      entry.lastAt = at;
      return;
    }
    const own = slot === key;
    this.pending.set(slot, {
      address: own ? address : '*',
      reason,
      count: 1,
      firstAt: at,
      lastAt: at,
      requestId,
      ...(own ? { targetAccountId: subject.targetAccountId, userAgent: subject.userAgent } : {}),
    });
  }

  /** Writes what was counted since the last flush; a failed write is logged and its counts dropped. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    for (const p of batch) {
      await this.options.audit
        .append({
          action: 'auth.failure',
          actor: { kind: 'anonymous' },
          requestId: p.requestId,
          clientAddress: p.address,
          ...(p.targetAccountId === undefined ? {} : { targetAccountId: p.targetAccountId }),
          details: {
            reason: p.reason,
            count: p.count,
            firstAt: new Date(p.firstAt).toISOString(),
            lastAt: new Date(p.lastAt).toISOString(),
            ...(p.userAgent === undefined ? {} : { userAgent: p.userAgent }),
          },
        })
        .catch((err: unknown) =>
          this.options.logger.error(
            { err, count: p.count },
            'could not write failed authentications to the audit trail',
          ),
        );
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs).unref();
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
