/**
 * Health and readiness. /healthz: the process answers. Readiness asks the
 * database and both services; the deep check runs live only on the
 * monitoring listener (probes, operators), while the public port's /readyz
 * answers the state of the last check, refreshed at most once per
 * `maxAgeMs` whatever the request rate: a flood of /readyz costs no query.
 */
import type { Router } from 'express';
import { failingChecks, healthRouter, type ReadinessCheck } from '@skills/common';

export interface ReadinessOptions {
  checks: readonly ReadinessCheck[];
  /** how long a result is reused by the public /readyz */
  maxAgeMs?: number;
  now?: () => number;
}

/** The names of the failing checks; none when ready. */
export type ReadinessState = readonly string[];

export class Readiness {
  private last: { at: number; failing: ReadinessState } | undefined;
  private refreshing: Promise<ReadinessState> | undefined;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ReadinessOptions) {
    this.maxAgeMs = options.maxAgeMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** Runs every check now (and keeps the result for `cached`). */
  async check(): Promise<ReadinessState> {
    const failing = await failingChecks(this.options.checks);
    this.last = { at: this.now(), failing };
    return failing;
  }

  /**
   * The last result while it is younger than `maxAgeMs`; else one refresh
   * shared by every caller. A stale result is answered while the refresh
   * runs, so only the very first call waits for a check.
   */
  async cached(): Promise<ReadinessState> {
    const last = this.last;
    if (last && this.now() - last.at < this.maxAgeMs) return last.failing;
    this.refreshing ??= this.check().finally(() => {
      this.refreshing = undefined;
    });
    return last ? last.failing : this.refreshing;
  }
}

/** The public port's /healthz and /readyz (from the cached state, naming nothing). */
export function healthRoutes(readiness: Readiness): Router {
  return healthRouter({ failing: () => readiness.cached(), nameFailing: false });
}

/** The monitoring listener's /healthz and live /readyz (naming what fails). */
export function deepHealthRoutes(readiness: Readiness): Router {
  return healthRouter({ failing: () => readiness.check(), nameFailing: true });
}
