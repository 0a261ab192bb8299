import { Redis } from 'ioredis';

/**
 * A Redis client for state that may fall back to the process's own memory
 * (rate-limit windows, the replay guard): a command never queues behind a
 * reconnect and fails after `commandTimeoutMs`, so a request never waits on
 * a Redis that is away; reconnects go on in the background.
 */
export function failOpenRedis(url: string, commandTimeoutMs = 250): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    // The ready check sends INFO, which each service's Redis user is not granted (deploy/redis/users.acl);
    // a Redis still loading its data answers LOADING, which fails open like any other error.
    enableReadyCheck: false,
  });
}

/**
 * Waits until `redis` is connected, at most `timeoutMs`; true when it is. A
 * process starts with the shared state working when Redis is there, and
 * without waiting on it when it is not (the fail-open case, not a failure).
 */
export async function readyWithin(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    redis.once('ready', onReady);
  });
}
