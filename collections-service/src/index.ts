/** What the package offers its neighbours (the standalone launcher, the bench, tests); the wiring is service.ts. */
export { createCollectionsApp, type CollectionsAppDeps } from './app';
export { COLLECTIONS_ENV, loadCollectionsConfig, type CollectionsConfig } from './config';
export { COLLECTIONS_SCHEMA, collectionsMigrations } from './store/migrations';
export { OutboxRelay, KafkaOutboxPublisher, createKafkaProducer, type OutboxPublisher } from './relay';
export { OutboxPruner, type OutboxPrunerOptions, type OutboxPruneRule } from './retention';
export { WebhookDispatcher, signatureOf, type WebhookDispatcherOptions } from './webhooks';
export { startCollectionsService } from './service';
