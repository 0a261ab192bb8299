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
  /** a path to a key file (principal keys); the service reads it at start and fails naming the variable */
  keyFile: () => Joi.string().min(1).required(),
  /** PRINCIPAL_KEYS_RELOAD_MS: how often key files are read again (a rotation without restarts); 0 reads them once */
  keyReloadMs: () =>
    Joi.number()
      .integer()
      .max(3_600_000)
      .default(10_000)
      .custom((value: number, helpers) => (value === 0 || value >= 100 ? value : helpers.error('reload.range')))
      .messages({ 'reload.range': '{#label} must be 0 (read once) or between 100 and 3600000' }),
  postgresUrl: () => Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  redisUrl: () => Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  /** SHED_EVENT_LOOP_DELAY_MS: a service sheds (503) while its event loop is this late (http/event-loop-shedding.ts); 0 never */
  shedEventLoopDelayMs: () => Joi.number().integer().min(0).max(60_000).default(500),
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

/** TLS and SCRAM of the Kafka clients (docs/kafka.md "Security"); files are read when the client is made. */
export interface KafkaSecuritySettings {
  /** TLS to the brokers, the certificate always verified; files: a CA bundle, and a client certificate and key for mutual TLS */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  sasl?: { mechanism: 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

export interface KafkaSecurityEnv {
  KAFKA_SSL: boolean;
  KAFKA_SSL_CA_FILE?: string;
  KAFKA_SSL_CERT_FILE?: string;
  KAFKA_SSL_KEY_FILE?: string;
  KAFKA_SASL_MECHANISM?: 'scram-sha-256' | 'scram-sha-512';
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
}

const SCRAM = /^scram-sha-(256|512)$/;

/** localhost and 127.0.0.0/8 (KAFKA_BROKERS holds no IPv6 literal): only this machine can listen there. */
function isLoopbackBroker(address: string): boolean {
  const host = address.slice(0, address.lastIndexOf(':')).toLowerCase();
  return host === 'localhost' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * SASL credentials and the records they guard stay off the wire in clear:
 * TLS is on, or every broker is on this machine (a local test broker).
 * `vars` is the environment being validated (KAFKA_SSL and KAFKA_BROKERS
 * come earlier in the schema, so they are already converted when present).
 */
function saslTravelsSafely(vars: { KAFKA_SSL?: unknown; KAFKA_BROKERS?: unknown }): boolean {
  if (String(vars.KAFKA_SSL).toLowerCase() === 'true') return true;
  const brokers = typeof vars.KAFKA_BROKERS === 'string' ? parseBrokerList(vars.KAFKA_BROKERS) : [];
  return brokers.every(isLoopbackBroker);
}

const withTls = (schema: Joi.StringSchema) =>
  schema
    .when('KAFKA_SSL', { not: true, then: Joi.forbidden() })
    .messages({ 'any.unknown': '{#label} needs KAFKA_SSL=true' });
const withSasl = (schema: Joi.StringSchema) =>
  schema.when('KAFKA_SASL_MECHANISM', { is: Joi.exist(), then: Joi.required(), otherwise: Joi.forbidden() }).messages({
    'any.required': '{#label} is required with KAFKA_SASL_MECHANISM',
    'any.unknown': '{#label} needs KAFKA_SASL_MECHANISM',
  });

/**
 * The Kafka security variables, the same for both services. SCRAM only:
 * PLAIN would send the password itself, SCRAM never does. Certificates are
 * always verified; there is no switch to turn that off.
 */
export const kafkaSecurityEnv = {
  KAFKA_SSL: Joi.boolean().default(false),
  KAFKA_SSL_CA_FILE: withTls(Joi.string().min(1)),
  KAFKA_SSL_CERT_FILE: withTls(Joi.string().min(1)),
  KAFKA_SSL_KEY_FILE: withTls(Joi.string().min(1)),
  // a pattern, not valid(): joi skips every later rule for a value of a valid() list
  KAFKA_SASL_MECHANISM: Joi.string()
    .pattern(SCRAM)
    .custom((value: string, helpers) =>
      !SCRAM.test(value) || saslTravelsSafely(helpers.state.ancestors[0]) ? value : helpers.error('sasl.plaintext'),
    )
    .messages({
      'string.pattern.base': '{#label} must be scram-sha-256 or scram-sha-512 (PLAIN is not accepted)',
      'sasl.plaintext':
        '{#label} needs KAFKA_SSL=true: without TLS the SCRAM exchange and every event cross the network in clear (only brokers on a loopback address in KAFKA_BROKERS may go without)',
    }),
  KAFKA_SASL_USERNAME: withSasl(Joi.string().min(1)),
  KAFKA_SASL_PASSWORD: withSasl(Joi.string().min(1)),
};

/** A client certificate goes with its key: `schema.and(...KAFKA_CLIENT_CERTIFICATE)` on the service's schema. */
export const KAFKA_CLIENT_CERTIFICATE = ['KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'] as const;

export function kafkaSecurityOf(e: KafkaSecurityEnv): KafkaSecuritySettings {
  const files = { caFile: e.KAFKA_SSL_CA_FILE, certFile: e.KAFKA_SSL_CERT_FILE, keyFile: e.KAFKA_SSL_KEY_FILE };
  const tls = e.KAFKA_SSL
    ? Object.fromEntries(Object.entries(files).filter(([, path]) => path !== undefined))
    : undefined;
  const sasl =
    e.KAFKA_SASL_MECHANISM && e.KAFKA_SASL_USERNAME && e.KAFKA_SASL_PASSWORD
      ? { mechanism: e.KAFKA_SASL_MECHANISM, username: e.KAFKA_SASL_USERNAME, password: e.KAFKA_SASL_PASSWORD }
      : undefined;
  return { ...(tls ? { tls } : {}), ...(sasl ? { sasl } : {}) };
}

/** KAFKA_BROKERS as kafkajs wants it. */
export function parseBrokerList(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
}
