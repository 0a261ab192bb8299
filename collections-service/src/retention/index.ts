export { OutboxPruner, type OutboxPrunerOptions, type OutboxPruneRule } from './outbox-pruner';
export { registerOutboxMetrics, type OutboxMetrics, type OutboxMetricsSources } from './outbox-metrics';
