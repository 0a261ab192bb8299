import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventBatchHandler, SkillChangeEvent } from '@skills/common';
import { decodeSkillEvent } from './skill-event.codec';

/** How long the consumer keeps retrying a failing batch before dead-lettering what still fails. */
export interface RetryPolicy {
  /** attempts for the whole batch, the first included */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, initialDelayMs: 250, maxDelayMs: 10_000 };

/** A message the consumer gives up on, with why; the sink publishes it to the dead-letter topic. */
export interface DeadLetter {
  topic: string;
  partition: number;
  message: KafkaMessage;
  reason: 'unparseable' | 'apply-failed';
  detail: string;
  attempts: number;
}

export interface DeadLetterSink {
  /** resolves once the broker acknowledged every letter */
  send(group: string, letters: DeadLetter[]): Promise<void>;
}

export interface BatchProcessorOptions {
  group: string;
  handler: EventBatchHandler;
  deadLetters: DeadLetterSink;
  retry: RetryPolicy;
  logger: Logger;
  /** injectable for tests; resolves after `ms` */
  sleep?: (ms: number) => Promise<void>;
}

interface Decoded {
  message: KafkaMessage;
  event: SkillChangeEvent;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The `eachBatch` body of one consumer group. The group's offset for a
 * partition moves only after every message of the batch was either applied
 * by the handler or acknowledged on the dead-letter topic; when the consumer
 * stops or loses the partition mid-batch, nothing is resolved and the next
 * owner gets the whole batch again (the handler is idempotent).
 */
export class BatchProcessor {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: BatchProcessorOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  async process(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const log = this.options.logger.child({ topic: batch.topic, partition: batch.partition, group: this.options.group });

    const events: Decoded[] = [];
    const unparseable: DeadLetter[] = [];
    for (const message of batch.messages) {
      const decoded = decodeSkillEvent(message.value);
      if (decoded.ok) events.push({ message, event: decoded.event });
      else unparseable.push(this.letter(payload, message, 'unparseable', decoded.reason, 1));
    }
    if (unparseable.length > 0) {
      log.warn({ count: unparseable.length, offsets: unparseable.map((l) => l.message.offset) }, 'unparseable events dead-lettered');
      await this.options.deadLetters.send(this.options.group, unparseable);
    }

    if (events.length > 0 && !(await this.applyWithRetry(payload, events, log))) return;

    // Resolving the batch's last message lets kafkajs step over control records too.
    const last = batch.messages[batch.messages.length - 1];
    payload.resolveOffset(last.offset);
    await payload.heartbeat();
    await payload.commitOffsetsIfNecessary({
      topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: nextOffset(batch.lastOffset()) }] }],
    });
  }

  /** true when every event was applied or dead-lettered; false when the batch was abandoned */
  private async applyWithRetry(payload: EachBatchPayload, events: Decoded[], log: Logger): Promise<boolean> {
    const { attempts, initialDelayMs, maxDelayMs } = this.options.retry;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (!this.stillOwned(payload)) return false;
      try {
        await this.options.handler(events.map((d) => d.event));
        return true;
      } catch (err) {
        lastError = err;
        log.warn({ err, attempt, attempts, size: events.length }, 'applying events failed');
      }
      if (attempt < attempts) {
        await this.sleep(Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1)));
        // Keeps the group membership alive while we wait; throws when a rebalance took the partition.
        await payload.heartbeat();
      }
    }
    log.error({ err: lastError, size: events.length }, 'batch still failing after retries; isolating events');
    return this.isolate(payload, events, attempts, log);
  }

  /**
   * One event at a time, so a single poisonous event ends on the dead-letter
   * topic and the others of its batch are still applied.
   */
  private async isolate(payload: EachBatchPayload, events: Decoded[], attempts: number, log: Logger): Promise<boolean> {
    const failed: DeadLetter[] = [];
    for (const { message, event } of events) {
      if (!this.stillOwned(payload)) return false;
      try {
        await this.options.handler([event]);
      } catch (err) {
        log.error({ err, eventId: event.eventId, offset: message.offset }, 'event dead-lettered');
        failed.push(this.letter(payload, message, 'apply-failed', errorText(err), attempts + 1));
      }
    }
    if (failed.length > 0) await this.options.deadLetters.send(this.options.group, failed);
    return true;
  }

  private stillOwned(payload: EachBatchPayload): boolean {
    return payload.isRunning() && !payload.isStale();
  }

  private letter(
    payload: EachBatchPayload,
    message: KafkaMessage,
    reason: DeadLetter['reason'],
    detail: string,
    attempts: number,
  ): DeadLetter {
    return { topic: payload.batch.topic, partition: payload.batch.partition, message, reason, detail, attempts };
  }
}

/** Kafka commits the offset of the next message to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
