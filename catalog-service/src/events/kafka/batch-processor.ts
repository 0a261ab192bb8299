import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { EventBatchHandler, SkillChangeEvent, Logger } from '@skills/common';
import { decodeSkillEvent } from './skill-event.codec';

/**
 * Backoff of a batch whose handler fails. The batch is retried until it
 * succeeds, the partition is lost or the consumer stops: deciding that an
 * event is poison is the handler's business (the indexer dead-letters it in
 * catalog.dead_letters), the event log only delivers.
 */
export interface RetryPolicy {
  /** failed attempts after which each further failure is logged as an error (a stuck partition) */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, initialDelayMs: 250, maxDelayMs: 10_000 };

/** A message the consumer refuses, with why; the sink stores it (catalog-service's dead-letter store). */
export interface DeadLetter {
  topic: string;
  partition: number;
  message: KafkaMessage;
  /** not JSON, or JSON that breaks the event contract: the handler never sees it */
  reason: 'unparseable' | 'contract';
  detail: string;
  /** the JSON the message held, when it was JSON */
  parsed?: unknown;
}

export interface DeadLetterSink {
  /** resolves once every letter is stored */
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
 * by the handler or (refused by the event contract) stored as a dead letter; a
 * failing handler is retried with capped backoff, never skipped; when the consumer
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
    const log = this.options.logger.child({
      topic: batch.topic,
      partition: batch.partition,
      group: this.options.group,
    });

    const events: Decoded[] = [];
    const refused: DeadLetter[] = [];
    for (const message of batch.messages) {
      const decoded = decodeSkillEvent(message.value);
      if (decoded.ok) events.push({ message, event: decoded.event });
      else
        refused.push({
          topic: batch.topic,
          partition: batch.partition,
          message,
          reason: decoded.reason,
          detail: decoded.detail,
          parsed: decoded.parsed,
        });
    }
    if (refused.length > 0) {
      log.warn(
        { count: refused.length, offsets: refused.map((l) => l.message.offset), reasons: refused.map((l) => l.detail) },
        'events refused and dead-lettered',
      );
      await this.options.deadLetters.send(this.options.group, refused);
    }

    if (events.length > 0 && !(await this.applyWithRetry(payload, events, log))) return;

    // Resolving the batch's last message lets kafkajs step over control records too.
    const last = batch.messages[batch.messages.length - 1];
    payload.resolveOffset(last.offset);
    await payload.heartbeat();
    await payload.commitOffsetsIfNecessary({
      topics: [
        { topic: batch.topic, partitions: [{ partition: batch.partition, offset: nextOffset(batch.lastOffset()) }] },
      ],
    });
  }

  /** true once the handler resolved; false when the batch was abandoned (partition lost, consumer stopping) */
  private async applyWithRetry(payload: EachBatchPayload, events: Decoded[], log: Logger): Promise<boolean> {
    const { attempts, initialDelayMs, maxDelayMs } = this.options.retry;
    for (let attempt = 1; ; attempt++) {
      if (!this.stillOwned(payload)) return false;
      try {
        await this.options.handler(events.map((d) => d.event));
        return true;
      } catch (err) {
        // Before `attempts`: a blip. After: the partition is stuck until the handler's dependency is back.
        if (attempt < attempts) log.warn({ err, attempt, size: events.length }, 'applying events failed; retrying');
        else
          log.error({ err, attempt, size: events.length }, 'applying events still failing; retrying until it succeeds');
      }
      await this.sleep(Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(attempt - 1, 20)));
      // Keeps the group membership alive while we wait; throws when a rebalance took the partition.
      await payload.heartbeat();
    }
  }

  private stillOwned(payload: EachBatchPayload): boolean {
    return payload.isRunning() && !payload.isStale();
  }
}

/** Kafka commits the offset of the next message to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
