/**
 * librdkafka's in-process mock cluster, from the optional dependency
 * @confluentinc/kafka-javascript: a real Kafka-protocol peer that kafkajs can
 * produce to and consume from, without Docker. The package is optional (it
 * builds a native addon), so suites that need it ask `mockClusterModule()`
 * and are skipped where the addon was not built.
 *
 * What the mock does not do (checked): createTopics and kafkajs's idempotent
 * producer. Topics are auto-created with 4 partitions on first use.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CatalogItemState, SkillChangeEvent } from '@skills/common';

interface Metadata {
  brokers: { id: number; host: string; port: number }[];
}
/** The node-rdkafka style producer of the package, as far as we use it. */
interface NativeProducer {
  connect(options: object, cb: (err: Error | null) => void): void;
  getMetadata(options: { timeout: number }, cb: (err: Error | null, md: Metadata) => void): void;
  disconnect(cb: (err: Error | null) => void): void;
}
interface MockModule {
  Producer: new (config: Record<string, string | number | boolean>) => NativeProducer;
}

let loaded: MockModule | null | undefined;

const PACKAGE = '@confluentinc/kafka-javascript';
/** The native addon the package builds at install; without it the package cannot load. */
const ADDON = 'build/Release/confluent-kafka-javascript.node';

/**
 * The package when its native addon is built; null when the package or its
 * addon is absent (the suites then skip, and .ci/summarize.cjs reports the
 * requirement absent). An addon that is there but fails to load throws: the
 * suite fails to load instead of skipping quietly.
 */
export function mockClusterModule(): MockModule | null {
  if (loaded !== undefined) return loaded;
  let packageJson: string;
  try {
    packageJson = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    loaded = null;
    return loaded;
  }
  if (!existsSync(join(dirname(packageJson), ADDON))) {
    loaded = null;
    return loaded;
  }
  // A computed name keeps the type checker from requiring the optional package, which an import would.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when its addon was built
  loaded = require(PACKAGE) as MockModule;
  return loaded;
}

export interface MockCluster {
  /** host:port of the mock brokers, for kafkajs */
  brokers: string[];
  stop(): Promise<void>;
}

/**
 * Starts a one-broker mock cluster. It lives inside a native client we keep
 * connected; its bootstrap address is read from that client's metadata.
 */
export async function startMockCluster(): Promise<MockCluster> {
  const mod = mockClusterModule();
  if (!mod) throw new Error('@confluentinc/kafka-javascript is not installed');
  const holder = new mod.Producer({ 'test.mock.num.brokers': 1, 'client.id': 'mock-cluster-holder' });
  await new Promise<void>((resolve, reject) => holder.connect({}, (err) => (err ? reject(err) : resolve())));
  const md = await new Promise<Metadata>((resolve, reject) =>
    holder.getMetadata({ timeout: 10_000 }, (err, m) => (err ? reject(err) : resolve(m))),
  );
  return {
    brokers: md.brokers.map((b) => `${b.host}:${b.port}`),
    stop: () => new Promise<void>((resolve) => holder.disconnect(() => resolve())),
  };
}

/** An event as the relay publishes it: the outbox row's jsonb, keyed by item id. */
export function eventFor(item: CatalogItemState): SkillChangeEvent {
  return {
    eventId: randomUUID(),
    type: item.status === 'deleted' ? 'skill.deleted' : 'skill.upserted',
    itemId: item.id,
    version: item.version,
    occurredAt: item.updatedAt,
    item,
  };
}

/**
 * The mock waits a session timeout (less 1 s) for members of a group that
 * rebalances; short timings keep restarts quick. Retries are fast but not so
 * fast that a failing batch is dead-lettered before the lag check looks.
 */
export const FAST_GROUP = {
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  maxWaitTimeMs: 200,
  retry: { attempts: 5, initialDelayMs: 250, maxDelayMs: 2_000 },
};
