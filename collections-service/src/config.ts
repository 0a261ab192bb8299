import Joi from 'joi';
import {
  backendServiceConfigOf,
  backendServiceEnv,
  env,
  loadConfig,
  type BackendServiceConfig,
  type BackendServiceEnv,
} from '@skills/common';
import { DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY } from './domain/report';
import { DEFAULT_GIVE_UP_AFTER_MS, DEFAULT_RETRY_SCHEDULE_MS } from './webhooks/webhook-dispatcher';

/**
 * The shared part (BackendServiceConfig) plus collections-service's own;
 * `redisUrl` refuses a replayed principal on every replica, `eventLog` says
 * where outbox rows go: read in place by catalog-service (postgres), or
 * relayed to Kafka by this service.
 */
export interface CollectionsConfig extends BackendServiceConfig {
  /** the reindex's read-only credential: opens GET /internal/v1/items and nothing else; the route is off without it */
  itemsReaderToken?: string;
  /** an outbox row every reader is done with is deleted once it is this old (docs/operations.md "Outbox retention") */
  outboxRetentionMs: number;
  /** pause between prune passes; 0 turns pruning off */
  outboxPruneIntervalMs: number;
  /** reports one account may file in any 24 hours (docs/trust.md "Reports") */
  reportsPerAccountPerDay: number;
  /** signed webhooks (docs/governance.md "Signed webhooks") */
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http and non-public addresses allowed (tests, local development) */
    allowPrivateTargets: boolean;
    /** delays after each failed attempt; the last repeats */
    retryScheduleMs: readonly number[];
    /** a delivery failing this long after its first attempt is abandoned and its endpoint disabled */
    giveUpAfterMs: number;
  };
}

interface CollectionsEnv extends BackendServiceEnv {
  ITEMS_READER_TOKEN?: string;
  OUTBOX_RETENTION_MS: number;
  OUTBOX_PRUNE_INTERVAL_MS: number;
  REPORTS_PER_ACCOUNT_PER_DAY: number;
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  WEBHOOK_RETRY_SCHEDULE: string;
  WEBHOOK_GIVE_UP_AFTER_MS: number;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const COLLECTIONS_ENV = backendServiceEnv({
  port: 8082,
  kafkaClientId: 'collections-service',
}).append<CollectionsEnv>({
  ITEMS_READER_TOKEN: env.secret().optional(),
  // A day: the window in which an operator can still re-deliver recent events from the
  // outbox (a new consumer group catching up, a re-publish to Kafka) without a full reindex,
  // long enough to span a night before anyone reads an alert; it bounds the table to a day of writes.
  OUTBOX_RETENTION_MS: Joi.number()
    .integer()
    .min(0)
    .max(365 * DAY)
    .default(DAY),
  // Rows become prunable over hours: passes under a second apart would only load the database.
  OUTBOX_PRUNE_INTERVAL_MS: Joi.number()
    .integer()
    .max(HOUR)
    .default(60 * SECOND)
    .custom((value: number, helpers) => (value === 0 || value >= SECOND ? value : helpers.error('outbox.interval')))
    .messages({ 'outbox.interval': '{#label} must be 0 (pruning off) or between 1000 and 3600000' }),
  // Enough for someone flagging a malicious campaign item by item; a flood from one account stops at a day's worth.
  REPORTS_PER_ACCOUNT_PER_DAY: Joi.number().integer().min(1).max(10_000).default(DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY),
  // Off: a webhook must never become a way into the operator's own network.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Joi.boolean().default(false),
  WEBHOOK_RETRY_SCHEDULE: Joi.string()
    .pattern(/^\s*\d+\s*(,\s*\d+\s*)*$/)
    .default(DEFAULT_RETRY_SCHEDULE_MS.join(','))
    .messages({
      'string.pattern.base': '{#label} must be delays in milliseconds separated by commas, e.g. 60000,300000',
    }),
  WEBHOOK_GIVE_UP_AFTER_MS: Joi.number()
    .integer()
    .min(0)
    .max(30 * DAY)
    .default(DEFAULT_GIVE_UP_AFTER_MS),
});

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCollectionsConfig(source: Record<string, string | undefined>): Readonly<CollectionsConfig> {
  const e = loadConfig(COLLECTIONS_ENV, source);
  return Object.freeze({
    ...backendServiceConfigOf(e),
    ...(e.ITEMS_READER_TOKEN ? { itemsReaderToken: e.ITEMS_READER_TOKEN } : {}),
    outboxRetentionMs: e.OUTBOX_RETENTION_MS,
    outboxPruneIntervalMs: e.OUTBOX_PRUNE_INTERVAL_MS,
    reportsPerAccountPerDay: e.REPORTS_PER_ACCOUNT_PER_DAY,
    webhooks: Object.freeze({
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryScheduleMs: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE.split(',').map((step) => Number(step.trim()))),
      giveUpAfterMs: e.WEBHOOK_GIVE_UP_AFTER_MS,
    }),
  });
}
