/**
 * The liveness and readiness probes, answered the same way by every
 * process: `GET /healthz` 200 while the process answers; `GET /readyz` 200
 * while its dependencies answer too, else 503 `{ error }`; any other method
 * 405 with `Allow`. No principal: they carry no data.
 */
import { Router } from 'express';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../errors';
import { methodNotAllowed } from './error-handler';

/** Health of a dependency, as `/readyz` reports it. */
export interface Health {
  ok: boolean;
  reason?: string;
}

/** One dependency readiness asks. */
export interface ReadinessCheck {
  /** what a 503 that names dependencies names */
  name: string;
  health(): Promise<Health>;
}

/** The names of the failing checks (one that throws fails), none when ready; the log line says why. */
export async function failingChecks(checks: readonly ReadinessCheck[], logger?: Logger): Promise<string[]> {
  const results = await Promise.all(
    checks.map(async (c) => ({
      name: c.name,
      health: await c.health().catch((err: Error): Health => ({ ok: false, reason: err.message })),
    })),
  );
  const failing = results.filter((r) => !r.health.ok);
  if (failing.length > 0)
    logger?.warn({ failing: failing.map((f) => ({ name: f.name, reason: f.health.reason })) }, 'not ready');
  return failing.map((f) => f.name);
}

export interface HealthRouterOptions {
  /** the failing dependencies now; none when ready */
  failing(): Promise<readonly string[]>;
  /**
   * Whether the 503 names them: yes inside the system and on the gateway's
   * monitoring listener; not on the gateway's public port, where a map of
   * the back end is for no one.
   */
  nameFailing: boolean;
}

export function healthRouter(options: HealthRouterOptions): Router {
  const router = Router();
  router
    .route('/healthz')
    .get((_req, res) => {
      res.json({ data: { status: 'ok' } });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/readyz')
    .get(async (_req, res) => {
      const failing = await options.failing();
      if (failing.length > 0) {
        throw options.nameFailing
          ? new ServiceUnavailableError('health.notReady', { reason: failing.join(', ') })
          : new ServiceUnavailableError('health.notReadyPublic');
      }
      res.json({ data: { status: 'ready' } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
