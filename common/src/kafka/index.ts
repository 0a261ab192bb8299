/**
 * The kafkajs client both services build (the relay in collections-service,
 * the consumer in catalog-service). A subpath of its own (`@skills/common/kafka`)
 * so that only the Kafka adapters load the driver.
 */
import { readFileSync } from 'node:fs';
import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { Logger } from 'pino';
import { ConfigError, type KafkaSecuritySettings } from '../config';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** TLS and SCRAM (KAFKA_SSL*, KAFKA_SASL_*); plaintext and anonymous without */
  security?: KafkaSecuritySettings;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

function pemFile(path: string, variable: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`${variable}: cannot read ${path}: ${(err as Error).message}`]);
  }
}

/**
 * kafkajs's `ssl` (passed to tls.connect) from the settings: the CA bundle
 * the brokers' certificates must chain to (the system's without one), and a
 * client certificate for mutual TLS. The certificate is always verified.
 */
function tlsOptions(tls: NonNullable<KafkaSecuritySettings['tls']>): ConnectionOptions {
  return {
    rejectUnauthorized: true,
    ...(tls.caFile ? { ca: [pemFile(tls.caFile, 'KAFKA_SSL_CA_FILE')] } : {}),
    ...(tls.certFile ? { cert: pemFile(tls.certFile, 'KAFKA_SSL_CERT_FILE') } : {}),
    ...(tls.keyFile ? { key: pemFile(tls.keyFile, 'KAFKA_SSL_KEY_FILE') } : {}),
  };
}

/** The security part of the client's config; files are read here, so a missing one fails the start naming its variable. */
export function kafkaSecurityConfig(security: KafkaSecuritySettings = {}): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const sasl: SASLOptions | undefined = security.sasl && { ...security.sasl };
  return { ...(security.tls ? { ssl: tlsOptions(security.tls) } : {}), ...(sasl ? { sasl } : {}) };
}

/**
 * A kafkajs client whose log lines go to our pino logger. Only its warnings
 * and errors: at info kafkajs narrates routine connection and group churn.
 */
export function createKafkaClient(options: KafkaClientOptions): Kafka {
  const log = options.logger.child({ component: 'kafkajs' });
  return new Kafka({
    brokers: options.brokers,
    clientId: options.clientId,
    ...kafkaSecurityConfig(options.security),
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        log[LEVELS[level] ?? 'info'](rest, message);
      },
  });
}
