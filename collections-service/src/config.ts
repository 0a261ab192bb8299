import Joi from 'joi';
import {
  KAFKA_CLIENT_CERTIFICATE,
  env,
  kafkaSecurityEnv,
  kafkaSecurityOf,
  loadConfig,
  parseBrokerList,
  type KafkaSecurityEnv,
  type KafkaSecuritySettings,
} from '@skills/common';
import { DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY } from './domain/report';
import { DEFAULT_GIVE_UP_AFTER_MS, DEFAULT_RETRY_SCHEDULE_MS } from './webhooks/webhook-dispatcher';

export interface CollectionsConfig {
  port: number;
  databaseUrl: string;
  /** PEM file of the one or two Ed25519 public keys principals are accepted from (docs/security.md "Principal keys") */
  principalPublicKeysFile: string;
  /** how often that file is read again (a rotation without restart); 0 reads it once */
  principalKeysReloadMs: number;
  /** the reindex's read-only credential: opens GET /internal/v1/items and nothing else; the route is off without it */
  itemsReaderToken?: string;
  /** Redis shared by the replicas to refuse a replayed principal on all of them; per process without it */
  redisUrl?: string;
  dbPoolMax: number;
  logLevel: string;
  /** requests are shed (503) while the event loop is this late; 0 never (common http/event-loop-shedding.ts) */
  shedEventLoopDelayMs: number;
  /** where outbox rows go: read in place by catalog-service (postgres), or relayed to Kafka by this service */
  eventLog: 'postgres' | 'kafka';
  /** set (validated) when eventLog is kafka */
  kafka?: { brokers: string[]; clientId: string; security: KafkaSecuritySettings };
  /** an outbox row every reader is done with is deleted once it is this old (docs/operations.md "Outbox retention") */
  outboxRetentionMs: number;
  /** pause between prune passes; 0 turns pruning off */
  outboxPruneIntervalMs: number;
  /** reports one account may file in any 24 hours (docs/trust.md "Reports") */
  reportsPerAccountPerDay: number;
  /** address to listen on (loopback unless a deployment opens it) */
  host: string;
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

interface CollectionsEnv extends KafkaSecurityEnv {
  PORT: number;
  DATABASE_URL: string;
  PRINCIPAL_PUBLIC_KEYS_FILE: string;
  PRINCIPAL_KEYS_RELOAD_MS: number;
  REDIS_URL?: string;
  ITEMS_READER_TOKEN?: string;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
  SHED_EVENT_LOOP_DELAY_MS: number;
  EVENT_LOG: 'postgres' | 'kafka';
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
  OUTBOX_RETENTION_MS: number;
  OUTBOX_PRUNE_INTERVAL_MS: number;
  REPORTS_PER_ACCOUNT_PER_DAY: number;
  HOST: string;
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  WEBHOOK_RETRY_SCHEDULE: string;
  WEBHOOK_GIVE_UP_AFTER_MS: number;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const COLLECTIONS_ENV = Joi.object<CollectionsEnv>({
  PORT: env.port(8082),
  DATABASE_URL: env.postgresUrl().required(),
  PRINCIPAL_PUBLIC_KEYS_FILE: env.keyFile(),
  PRINCIPAL_KEYS_RELOAD_MS: env.keyReloadMs(),
  REDIS_URL: env.redisUrl(),
  ITEMS_READER_TOKEN: env.secret().optional(),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  LOG_LEVEL: env.logLevel(),
  SHED_EVENT_LOOP_DELAY_MS: env.shedEventLoopDelayMs(),
  EVENT_LOG: env.eventLog(),
  KAFKA_BROKERS: env.kafkaBrokers(),
  ...kafkaSecurityEnv,
  KAFKA_CLIENT_ID: env.kafkaClientId('collections-service'),
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
  HOST: env.host(),
  // Off: a webhook must never become a way into the operator's own network.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Joi.boolean().default(false),
  WEBHOOK_RETRY_SCHEDULE: Joi.string()
    .pattern(/^\s*\d+\s*(,\s*\d+\s*)*$/)
    .default(DEFAULT_RETRY_SCHEDULE_MS.join(','))
    .messages({ 'string.pattern.base': '{#label} must be delays in milliseconds separated by commas, e.g. 60000,300000' }),
  WEBHOOK_GIVE_UP_AFTER_MS: Joi.number()
    .integer()
    .min(0)
    .max(30 * DAY)
    .default(DEFAULT_GIVE_UP_AFTER_MS),
}).and(...KAFKA_CLIENT_CERTIFICATE);

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCollectionsConfig(source: Record<string, string | undefined>): Readonly<CollectionsConfig> {
  const e = loadConfig(COLLECTIONS_ENV, source);
  return Object.freeze({
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    principalPublicKeysFile: e.PRINCIPAL_PUBLIC_KEYS_FILE,
    principalKeysReloadMs: e.PRINCIPAL_KEYS_RELOAD_MS,
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    ...(e.ITEMS_READER_TOKEN ? { itemsReaderToken: e.ITEMS_READER_TOKEN } : {}),
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
    shedEventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS,
    eventLog: e.EVENT_LOG,
    kafka:
      e.EVENT_LOG === 'kafka' && e.KAFKA_BROKERS
        ? Object.freeze({ brokers: parseBrokerList(e.KAFKA_BROKERS), clientId: e.KAFKA_CLIENT_ID, security: kafkaSecurityOf(e) })
        : undefined,
    outboxRetentionMs: e.OUTBOX_RETENTION_MS,
    outboxPruneIntervalMs: e.OUTBOX_PRUNE_INTERVAL_MS,
    reportsPerAccountPerDay: e.REPORTS_PER_ACCOUNT_PER_DAY,
    host: e.HOST,
    webhooks: Object.freeze({
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryScheduleMs: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE.split(',').map((step) => Number(step.trim()))),
      giveUpAfterMs: e.WEBHOOK_GIVE_UP_AFTER_MS,
    }),
  });
}
