/**
 * Health and readiness. /healthz: the process answers. Readiness asks the
 * database and both services; the deep check runs live only on the
 * monitoring listener (probes, operators), while the public port's /readyz
 * answers the state of the last check, refreshed at most once per
 * `maxAgeMs` whatever the request rate: a flood of /readyz costs no query.
 */
import { Router, type Request, type Response } from 'express';
import { ServiceUnavailableError } from '@skills/common';

export interface ReadinessCheck {
  /** what the monitoring listener's 503 names when this check fails */
  name: string;
  ready(): Promise<boolean>;
}

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
    const results = await Promise.all(
      this.options.checks.map(async (c) => ((await c.ready().catch(() => false)) ? undefined : c.name)),
    );
    const failing = results.filter((name): name is string => name !== undefined);
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

/**
 * The public answer says only ready or not: which dependency is down is for
 * operators (the monitoring listener), not a map of the back end for anyone.
 */
function answerPublic(res: Response, failing: ReadinessState): void {
  if (failing.length > 0) throw new ServiceUnavailableError('health.notReadyPublic');
  res.json({ data: { status: 'ready' } });
}

function answerOperator(res: Response, failing: ReadinessState): void {
  if (failing.length > 0) throw new ServiceUnavailableError('health.notReady', { reason: failing.join(', ') });
  res.json({ data: { status: 'ready' } });
}

/** The public port's /healthz and /readyz (from the cached state). */
export function healthRoutes(readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/readyz', async (_req: Request, res: Response) => answerPublic(res, await readiness.cached()));
  return router;
}

/** The monitoring listener's /healthz and live /readyz. */
export function deepHealthRoutes(readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/readyz', async (_req: Request, res: Response) => answerOperator(res, await readiness.check()));
  return router;
}
