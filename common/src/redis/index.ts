/** Redis-backed pieces, on a subpath of their own: only the services that use Redis import the driver. */
import type { Logger } from 'pino';
import type { ReplayGuard } from '../replay-guard';
import { RedisReplayGuard } from './redis-replay-guard';

export { RedisReplayGuard, type RedisReplayGuardOptions } from './redis-replay-guard';
export { FailOpenRedis, type FailOpenRedisOptions } from './fail-open-redis';

/**
 * The shared replay guard of a service when `redisUrl` is configured
 * (waited for up to a second, never longer: the guard fails open), else
 * undefined: the verifier's own per-process memory. Its keys are under
 * `skills:principal:<service>:`, so each service's Redis user is granted
 * its own ids only (deploy/redis/users.acl).
 */
export async function sharedReplayGuard(
  redisUrl: string | undefined,
  logger: Logger,
  service: string,
): Promise<ReplayGuard | undefined> {
  if (!redisUrl) return undefined;
  const guard = new RedisReplayGuard({
    url: redisUrl,
    logger: logger.child({ component: 'replay-guard' }),
    prefix: replayGuardPrefix(service),
  });
  await guard.ready();
  return guard;
}

/** Where a service's replay guard keeps the ids it has seen. */
export function replayGuardPrefix(service: string): string {
  return `skills:principal:${service}:`;
}
