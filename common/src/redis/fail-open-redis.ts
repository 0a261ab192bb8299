import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface FailOpenRedisOptions {
  url: string;
  /** a command fails after this long (default 250 ms) */
  commandTimeoutMs?: number;
  logger: Logger;
  /** what the owner does while Redis is away, warned once each time it goes ("rate limit: … counting per replica") */
  whileAway: string;
  /** said once it answers again */
  back: string;
}

/**
 * A Redis connection for state that may fall back to the process's own
 * memory (rate-limit windows, the sign-in throttle, the replay guard): a
 * command never queues behind a reconnect and fails after its timeout, so a
 * request never waits on a Redis that is away; reconnects go on in the
 * background. Its owner runs the commands on `client`, falls back on an
 * error and reports it with `away`, which warns once until `answered`.
 */
export class FailOpenRedis {
  readonly client: Redis;
  private degraded = false;

  constructor(private readonly options: FailOpenRedisOptions) {
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      // The ready check sends INFO, which each service's Redis user is not granted (deploy/redis/users.acl);
      // a Redis still loading its data answers LOADING, which fails open like any other error.
      enableReadyCheck: false,
    });
    // Without a listener ioredis prints every connection error itself.
    this.client.on('error', (err: Error) => this.away(err));
    this.client.on('ready', () => this.answered());
  }

  /**
   * Waits until Redis is connected, at most `timeoutMs`; true when it is. A
   * process starts with the shared state working when Redis is there, and
   * without waiting on it when it is not (the fail-open case, not a failure).
   */
  async ready(timeoutMs = 1_000): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    return new Promise<boolean>((resolve) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      this.client.once('ready', onReady);
    });
  }

  /** A command or the connection failed: the owner counts in memory now; warned once until Redis answers again. */
  away(err: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.logger.warn({ err }, this.options.whileAway);
  }

  /**
   * A command succeeded (or the connection is back): said once after an
   * outage. A timeout leaves the connection up, so a reconnect alone would
   * never end the outage it began.
   */
  answered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.logger.warn(this.options.back);
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
