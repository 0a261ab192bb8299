/**
 * Env parsing for every process: one joi schema per service, validated once
 * into a frozen object. Every bad variable is reported by name at once, so an
 * operator fixes the whole environment in one pass.
 */
import Joi from 'joi';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig<T extends object>(
  schema: Joi.ObjectSchema<T>,
  env: Record<string, string | undefined>,
): Readonly<T> {
  const { error, value } = schema.validate(env, {
    abortEarly: false,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) throw new ConfigError(error.details.map((d) => d.message));
  return Object.freeze(value);
}

/** Reusable pieces of env schemas. */
export const env = {
  port: (def: number) => Joi.number().integer().min(0).max(65535).default(def),
  /** HOST: the address to listen on; loopback unless a deployment opens it (a container: 0.0.0.0) */
  host: () => Joi.string().hostname().default('127.0.0.1'),
  secret: () => Joi.string().min(32).required().messages({ 'string.min': '{#label} must be at least 32 characters' }),
  postgresUrl: () => Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  redisUrl: () => Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  logLevel: () => Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  /** EVENT_LOG: the embedded Postgres log (default) or Kafka */
  eventLog: () => Joi.string().valid('postgres', 'kafka').default('postgres'),
  /** KAFKA_BROKERS: `host:port[,host:port...]`, required when EVENT_LOG=kafka */
  kafkaBrokers: () =>
    Joi.string()
      .pattern(/^\s*[A-Za-z0-9.-]+:\d{1,5}\s*(,\s*[A-Za-z0-9.-]+:\d{1,5}\s*)*$/)
      .when('EVENT_LOG', { is: 'kafka', then: Joi.required() })
      .messages({
        'any.required': '{#label} is required when EVENT_LOG=kafka',
        'string.pattern.base': '{#label} must be a comma-separated list of host:port, e.g. kafka-1:9092,kafka-2:9092',
      }),
  /** KAFKA_CLIENT_ID: how this process names itself to the brokers (quotas, broker logs) */
  kafkaClientId: (def: string) =>
    Joi.string()
      .pattern(/^[A-Za-z0-9._-]{1,100}$/)
      .default(def)
      .messages({ 'string.pattern.base': '{#label} must be 1 to 100 letters, digits, ".", "_" or "-"' }),
};

/** KAFKA_BROKERS as kafkajs wants it. */
export function parseBrokerList(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
}
