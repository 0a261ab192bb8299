/**
 * The background loop of webhooks, in every instance: workspace events fan
 * out to deliveries, item events are compared with the pins, and due
 * deliveries are sent. Every step is safe with several instances running
 * (locked positions, SKIP LOCKED claims).
 *
 * Sending never waits for a receiver: attempts run side by side, at most
 * `maxInFlight` in this instance and `perEndpoint` per endpoint, and the
 * loop claims more as soon as one ends. So an endpoint that accepts and
 * never answers, or whose name's DNS server never answers, holds its own
 * few slots until its bounds (DNS, connection, attempt) end them, while
 * other endpoints' deliveries are claimed and sent meanwhile. `stop()` lets
 * the attempts in hand finish and claims nothing more.
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';
import { InterruptiblePause } from '../background/interruptible-pause';
import { DeliveryRepository, type ClaimedDelivery } from './delivery.repository';
import { workspaceEventsFanOut } from './event-fanout';
import { dnsResolver, type HostResolver } from './host-resolver';
import { sendOnce } from './http-sender';
import { readOnce } from './ordered-log';
import { signedHeaders } from './signature';
import type { TargetPolicy } from './target-guard';
import { verdictWatch } from './verdict-watch';

/** 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then every 12 h (docs/governance.md). */
export const DEFAULT_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000];
export const DEFAULT_GIVE_UP_AFTER_MS = 86_400_000;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A DNS answer comes in milliseconds; one that has not come in 3 s is not coming soon. */
export const DEFAULT_DNS_TIMEOUT_MS = 3_000;
/** From the address being known to the TCP connection being made. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** Attempts to one endpoint in flight in one instance. */
export const DEFAULT_PER_ENDPOINT = 2;

export interface WebhookDispatcherOptions {
  sequelize: Sequelize;
  logger: Logger;
  targets: TargetPolicy;
  /** how hosts are resolved; DNS through c-ares bounded by `dnsTimeoutMs` when absent */
  resolver?: HostResolver;
  /** delays after the 1st, 2nd, … failed attempt; the last repeats */
  retryScheduleMs?: readonly number[];
  /** a delivery still failing this long after its first attempt is abandoned */
  giveUpAfterMs?: number;
  /** pause between passes that found nothing to do; default 1 s */
  pollIntervalMs?: number;
  /** rows read per pass, and attempts in flight in this instance; default 100 */
  batchSize?: number;
  /** attempts to one endpoint in flight in this instance; default 2 */
  perEndpoint?: number;
  /** one whole attempt; default 10 s */
  timeoutMs?: number;
  /** one lookup, when `resolver` is absent; default 3 s */
  dnsTimeoutMs?: number;
  /** one connection once its address is known; default 5 s */
  connectTimeoutMs?: number;
}

/** The delay before the next attempt after `attempts` failed ones (1 or more). */
export function retryDelay(schedule: readonly number[], attempts: number): number {
  return schedule[Math.min(attempts, schedule.length) - 1] ?? DEFAULT_RETRY_SCHEDULE_MS[0]!;
}

export class WebhookDispatcher {
  private readonly deliveries: DeliveryRepository;
  private readonly resolver: HostResolver;
  private readonly pause = new InterruptiblePause();
  /** attempts in flight here, per endpoint id */
  private readonly inFlight = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.deliveries = new DeliveryRepository(options.sequelize);
    this.resolver = options.resolver ?? dnsResolver({ timeoutMs: options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS });
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.running;
    await Promise.all(this.attempts);
  }

  /** One pass of the three steps, waiting for the attempts it started; returns how much it did (tests drive it directly). */
  async pass(): Promise<number> {
    const { read, claimed, attempts } = await this.step();
    await attempts;
    return read + claimed;
  }

  /** Reads both logs, then claims what this instance has room for and starts those attempts without waiting for them. */
  private async step(): Promise<{ read: number; claimed: number; attempts: Promise<void> }> {
    const { sequelize } = this.options;
    const batch = this.options.batchSize ?? 100;
    const watched = await readOnce(sequelize, verdictWatch, batch);
    const fanned = await readOnce(sequelize, workspaceEventsFanOut, batch);
    const room = batch - this.attempts.size;
    const claimed =
      room > 0
        ? await this.deliveries.claimDue({
            limit: room,
            leaseMs: (this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS) + 30_000,
            perEndpoint: this.options.perEndpoint ?? DEFAULT_PER_ENDPOINT,
            inFlight: this.inFlight,
          })
        : [];
    const started = claimed.map((delivery) => this.track(delivery));
    return { read: watched + fanned, claimed: claimed.length, attempts: Promise.all(started).then(() => undefined) };
  }

  /** Counts the attempt against its endpoint while it runs; its end wakes the loop, which may claim that endpoint's next one. */
  private track(delivery: ClaimedDelivery): Promise<void> {
    const id = delivery.webhookId;
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    const attempt = this.attempt(delivery)
      .catch((err: unknown) =>
        this.options.logger.error(
          { err, deliveryId: delivery.id },
          'webhook attempt could not be recorded; it is claimed again after its lease',
        ),
      )
      .finally(() => {
        const left = (this.inFlight.get(id) ?? 1) - 1;
        if (left > 0) this.inFlight.set(id, left);
        else this.inFlight.delete(id);
        this.attempts.delete(attempt);
        this.pause.wake();
      });
    this.attempts.add(attempt);
    return attempt;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let worked = 0;
      try {
        const { read, claimed } = await this.step();
        worked = read + claimed;
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
      connectTimeoutMs: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      targets,
      resolver: this.resolver,
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
