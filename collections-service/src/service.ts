/**
 * collections-service's start-up: the database, the HTTP app and its
 * listener, the outbox relay and pruner, the webhook dispatcher; `close()`
 * drains the listener first so the last requests' events still go out.
 */
import {
  PrincipalVerifier,
  createServiceMetrics,
  listen,
  openKeysAndDatabase,
  publicKeysFileOf,
  type Logger,
  type RunningService,
} from '@skills/common';
import { createCollectionsApp } from './app';
import type { CollectionsConfig } from './config';
import { COLLECTIONS_SCHEMA, collectionsMigrations } from './store/migrations';
import { sharedReplayGuard } from '@skills/common/redis';
import { createKafkaProducer, KafkaOutboxPublisher, OutboxRelay } from './relay';
import { OutboxPruner, registerOutboxMetrics } from './retention';
import { WebhookDispatcher } from './webhooks';

/** Migrates the schema, then serves on `config.port` (0 picks a free port). */
export async function startCollectionsService(
  config: Readonly<CollectionsConfig>,
  logger: Logger,
): Promise<RunningService> {
  const database = await openKeysAndDatabase({
    name: 'collections-service',
    config,
    keyFile: publicKeysFileOf(config),
    schema: COLLECTIONS_SCHEMA,
    migrations: collectionsMigrations,
    logger,
  });
  const { keys: publicKeys, sequelize } = database;
  const metrics = createServiceMetrics('collections-service');
  const replayGuard = await sharedReplayGuard(config.redisUrl, logger, 'collections-service');
  const app = createCollectionsApp({
    sequelize,
    verifier: new PrincipalVerifier({ audience: 'collections-service', keys: publicKeys, replayGuard }),
    logger,
    metrics,
    shedding: { maxDelayMs: config.shedEventLoopDelayMs },
    itemsReaderToken: config.itemsReaderToken,
    reportsPerAccountPerDay: config.reportsPerAccountPerDay,
    webhookTargets: { allowPrivate: config.webhooks.allowPrivateTargets },
  });
  const http = await listen(app, { port: config.port, host: config.host });
  logger.info({ port: http.port, eventLog: config.eventLog }, 'collections-service listening');
  // With EVENT_LOG=kafka this service relays its outbox to Kafka; with postgres, catalog-service reads the outbox itself.
  const relayLogger = logger.child({ component: 'outbox-relay' });
  const relay = config.kafka
    ? new OutboxRelay({
        sequelize,
        publisher: new KafkaOutboxPublisher(createKafkaProducer({ ...config.kafka, logger: relayLogger })),
        logger: relayLogger,
      })
    : undefined;
  relay?.start();
  const outboxMetrics = registerOutboxMetrics(metrics, {
    sequelize,
    logger: logger.child({ component: 'outbox-metrics' }),
    unpublished: relay && (() => relay.lag()),
  });
  // Both modes: rows every reader is done with go once older than the retention (docs/operations.md).
  const pruner =
    config.outboxPruneIntervalMs > 0
      ? new OutboxPruner({
          sequelize,
          logger,
          rule: config.eventLog === 'kafka' ? 'published' : 'consumed',
          retentionMs: config.outboxRetentionMs,
          intervalMs: config.outboxPruneIntervalMs,
          onPruned: outboxMetrics.pruned,
          onPass: outboxMetrics.passed,
        })
      : undefined;
  pruner?.start();
  // Every instance runs it: positions are locked and deliveries claimed with SKIP LOCKED.
  const webhooks = new WebhookDispatcher({
    sequelize,
    logger: logger.child({ component: 'webhooks' }),
    targets: { allowPrivate: config.webhooks.allowPrivateTargets },
    retryScheduleMs: config.webhooks.retryScheduleMs,
    giveUpAfterMs: config.webhooks.giveUpAfterMs,
  });
  webhooks.start();
  return {
    port: http.port,
    url: http.url,
    async close() {
      await http.drain();
      // After the last request: its outbox rows go out now, or with the next process.
      await relay?.stop();
      await pruner?.stop();
      await webhooks.stop();
      await replayGuard?.close?.();
      await database.close();
    },
  };
}
