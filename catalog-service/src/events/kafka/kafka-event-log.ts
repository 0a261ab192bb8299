import {
  ServiceUnavailableError,
  SKILL_CHANGES_TOPIC,
  type EventBatchHandler,
  type EventLog,
  type EventSubscription,
  type Health,
  type Logger,
} from '@skills/common';
import { storablePayload, textField, type RejectedEventSink } from '../rejected-events';
import { BatchProcessor, DEFAULT_RETRY, type DeadLetter, type RetryPolicy } from './batch-processor';
import type { AdminLike, ConsumerLike, KafkaLike } from './kafka-client';

export interface KafkaEventLogOptions {
  kafka: KafkaLike;
  logger: Logger;
  /** where messages that are no event of the contract go (the dead-letter store): this client never produces */
  rejected: RejectedEventSink;
  topic?: string;
  retry?: Partial<RetryPolicy>;
  /** consumer-group timings; kafkajs defaults when absent */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** longest a fetch waits for new messages (kafkajs default 5 s) */
  maxWaitTimeMs?: number;
  /** how long `health()` waits for the cluster */
  healthTimeoutMs?: number;
}

/**
 * EventLog over Kafka (kafkajs 2.2.4, unmaintained: see docs/kafka.md). One
 * consumer group per `subscribe`; offsets are committed by hand after the
 * handler resolved, so delivery is at least once and a crash replays at most
 * the batch in hand. Every message is held to the event contract; what is
 * not JSON or breaks it goes to the dead-letter store with the reason instead
 * of blocking its partition or reaching the engine. Consumer and admin only:
 * the ACLs give this service no right to produce (docs/kafka.md).
 */
export class KafkaEventLog implements EventLog {
  private readonly topic: string;
  private readonly retry: RetryPolicy;
  private readonly subscriptions = new Set<EventSubscription>();
  private admin?: Promise<AdminLike>;
  private closed = false;

  constructor(private readonly options: KafkaEventLogOptions) {
    this.topic = options.topic ?? SKILL_CHANGES_TOPIC;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async subscribe(group: string, handler: EventBatchHandler): Promise<EventSubscription> {
    if (this.closed) throw new ServiceUnavailableError('server.shuttingDown');
    const logger = this.options.logger.child({ group, topic: this.topic });
    const consumer = this.options.kafka.consumer({
      groupId: group,
      sessionTimeout: this.options.sessionTimeoutMs,
      heartbeatInterval: this.options.heartbeatIntervalMs,
      maxWaitTimeInMs: this.options.maxWaitTimeMs,
      retry: {
        // A crashed consumer (e.g. a commit that failed) restarts from the last committed offset.
        restartOnFailure: async (err: Error) => {
          logger.error({ err }, 'kafka consumer crashed; restarting from the last committed offset');
          return !this.closed;
        },
      },
    });
    const processor = new BatchProcessor({
      group,
      handler,
      retry: this.retry,
      logger,
      deadLetters: { send: (g, letters) => this.sendDeadLetters(g, letters) },
    });
    await consumer.connect();
    try {
      // A new group starts at the beginning of the topic: an index built from scratch misses nothing.
      await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: (payload) => processor.process(payload),
      });
    } catch (err) {
      await consumer.disconnect();
      throw err;
    }
    logger.info('kafka subscription started');
    const subscription = this.subscription(group, consumer, logger);
    this.subscriptions.add(subscription);
    return subscription;
  }

  private subscription(group: string, consumer: ConsumerLike, logger: Logger): EventSubscription {
    let stopping: Promise<void> | undefined;
    const subscription: EventSubscription = {
      // kafkajs's disconnect stops fetching, waits for the batch in hand and leaves the group.
      stop: () => {
        stopping ??= consumer.disconnect().then(() => {
          this.subscriptions.delete(subscription);
          logger.info('kafka subscription stopped');
        });
        return stopping;
      },
      lag: () => this.lag(group),
    };
    return subscription;
  }

  /** Messages on the topic past the group's committed offsets; undefined when Kafka cannot say. */
  private async lag(group: string): Promise<number | undefined> {
    try {
      const admin = await this.connectedAdmin();
      const [committed, ends] = await Promise.all([
        admin.fetchOffsets({ groupId: group, topics: [this.topic] }),
        admin.fetchTopicOffsets(this.topic),
      ]);
      const done = new Map(committed.flatMap((t) => t.partitions.map((p) => [p.partition, BigInt(p.offset)] as const)));
      let lag = 0n;
      for (const p of ends) {
        const position = done.get(p.partition) ?? -1n;
        // -1: nothing committed yet, so the group will read from the low watermark.
        const from = position < 0n ? BigInt(p.low) : position;
        lag += BigInt(p.high) - from;
      }
      return Number(lag);
    } catch (err) {
      this.options.logger.warn({ err, group }, 'kafka lag unavailable');
      return undefined;
    }
  }

  async health(): Promise<Health> {
    const timeoutMs = this.options.healthTimeoutMs ?? 3_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Health>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, reason: `kafka did not answer within ${timeoutMs} ms` }),
        timeoutMs,
      );
    });
    const probe = (async (): Promise<Health> => {
      const cluster = await (await this.connectedAdmin()).describeCluster();
      return cluster.brokers.length > 0 ? { ok: true } : { ok: false, reason: 'kafka cluster has no brokers' };
    })().catch((err: unknown): Health => ({ ok: false, reason: `kafka unreachable: ${(err as Error).message}` }));
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops every subscription after its batch in hand, then disconnects the admin client. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    const admin = this.admin;
    this.admin = undefined;
    await admin?.then(
      (a) => a.disconnect(),
      () => undefined,
    );
  }

  /** Refused messages become dead letters, named by their own ids when they have them, else by where they were read. */
  private async sendDeadLetters(group: string, letters: DeadLetter[]): Promise<void> {
    await this.options.rejected.reject(
      group,
      letters.map((l) => ({
        eventId: textField(l.parsed, 'eventId') ?? `kafka:${l.topic}/${l.partition}@${l.message.offset}`,
        itemId: textField(l.parsed, 'itemId') ?? l.message.key?.toString('utf8').slice(0, 200) ?? '',
        payload: storablePayload(l.message.value ?? Buffer.alloc(0), l.parsed),
        reason: `${l.reason}: ${l.detail}`,
      })),
    );
  }

  private connectedAdmin(): Promise<AdminLike> {
    this.admin ??= connect(this.options.kafka.admin()).catch((err: unknown) => {
      this.admin = undefined;
      throw err;
    });
    return this.admin;
  }
}

async function connect<T extends { connect(): Promise<void> }>(client: T): Promise<T> {
  await client.connect();
  return client;
}
