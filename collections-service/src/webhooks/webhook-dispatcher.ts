/**
 * The background loop of webhooks, in every instance: workspace events fan
 * out to deliveries, item events are compared with the pins, and due
 * deliveries are sent. Every step is safe with several instances running
 * (locked positions, SKIP LOCKED claims); `stop()` lets the pass in hand
 * finish and sends nothing more.
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';
import { InterruptiblePause } from '../background/interruptible-pause';
import { DeliveryRepository, type ClaimedDelivery } from './delivery.repository';
import { workspaceEventsFanOut } from './event-fanout';
import { sendOnce } from './http-sender';
import { readOnce } from './ordered-log';
import { signedHeaders } from './signature';
import type { TargetPolicy } from './target-guard';
import { verdictWatch } from './verdict-watch';

/** 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then every 12 h (docs/governance.md). */
export const DEFAULT_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000];
export const DEFAULT_GIVE_UP_AFTER_MS = 86_400_000;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookDispatcherOptions {
  sequelize: Sequelize;
  logger: Logger;
  targets: TargetPolicy;
  /** delays after the 1st, 2nd, … failed attempt; the last repeats */
  retryScheduleMs?: readonly number[];
  /** a delivery still failing this long after its first attempt is abandoned */
  giveUpAfterMs?: number;
  /** pause between passes that found nothing to do; default 1 s */
  pollIntervalMs?: number;
  /** rows read and deliveries claimed per pass; default 100 */
  batchSize?: number;
  timeoutMs?: number;
}

/** The delay before the next attempt after `attempts` failed ones (1 or more). */
export function retryDelay(schedule: readonly number[], attempts: number): number {
  return schedule[Math.min(attempts, schedule.length) - 1] ?? DEFAULT_RETRY_SCHEDULE_MS[0]!;
}

export class WebhookDispatcher {
  private readonly deliveries: DeliveryRepository;
  private readonly pause = new InterruptiblePause();
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.deliveries = new DeliveryRepository(options.sequelize);
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.running;
  }

  /** One pass of the three steps; returns how much it did (tests drive it directly). */
  async pass(): Promise<number> {
    const { sequelize } = this.options;
    const batch = this.options.batchSize ?? 100;
    const watched = await readOnce(sequelize, verdictWatch, batch);
    const fanned = await readOnce(sequelize, workspaceEventsFanOut, batch);
    const claimed = await this.deliveries.claimDue(batch, (this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS) + 30_000);
    await Promise.all(claimed.map((d) => this.attempt(d)));
    return watched + fanned + claimed.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let worked = 0;
      try {
        worked = await this.pass();
      } catch (err) {
        this.options.logger.error({ err }, 'webhook pass failed; it will run again');
      }
      if (worked === 0 && !this.stopping) await this.pause.sleep(this.options.pollIntervalMs ?? 1000);
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { logger, targets } = this.options;
    const log = logger.child({ webhookId: delivery.webhookId, eventId: delivery.eventId, deliveryId: delivery.id });
    const outcome = await sendOnce({
      url: delivery.url,
      body: delivery.body,
      headers: signedHeaders(delivery.secret, delivery.eventId, delivery.body, new Date()),
      timeoutMs: this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      targets,
    });
    if (outcome.ok) {
      await this.deliveries.delivered(delivery.id, outcome.statusCode ?? 200);
      return;
    }
    const schedule = this.options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
    const status = await this.deliveries.failed(
      delivery,
      outcome,
      retryDelay(schedule, delivery.attempts + 1),
      this.options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS,
    );
    // A receiver's failure is theirs, not ours: a warning, never an error.
    log.warn({ status, attempts: delivery.attempts + 1, error: outcome.error }, 'webhook delivery failed');
  }
}
