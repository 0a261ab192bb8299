import { ConfigError, createSequelize } from '@skills/common';
import { createEventLog } from '../../../src/adapters';
import { loadCatalogConfig } from '../../../src/config';
import { loadCollectionsConfig } from '../../../../collections-service/src/config';
import { createKafkaProducer } from '../../../../collections-service/src/relay';
import { REFUSE_NOTHING } from '../../support/rejected-events';
import { silentLogger } from '@skills/common/testing';

const BASE = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/catalog',
  PRINCIPAL_PUBLIC_KEYS_FILE: '/run/secrets/principal-public-keys.pem',
};

function problems(load: (env: Record<string, string>) => unknown, env: Record<string, string>): string[] {
  try {
    load({ ...BASE, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe.each([
  ['catalog-service', loadCatalogConfig],
  ['collections-service', loadCollectionsConfig],
] as const)('%s config for Kafka', (service, load) => {
  it('uses the Postgres event log by default, with no Kafka settings', () => {
    const config = load(BASE);
    expect(config.eventLog).toBe('postgres');
    expect(config.kafka).toBeUndefined();
  });

  it('reads the broker list and the client id when EVENT_LOG=kafka', () => {
    const config = load({ ...BASE, EVENT_LOG: 'kafka', KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9093' });
    expect(config.kafka).toEqual({ brokers: ['kafka-1:9092', 'kafka-2:9093'], clientId: service, security: {} });
    expect(
      load({ ...BASE, EVENT_LOG: 'kafka', KAFKA_BROKERS: '10.0.0.5:9092', KAFKA_CLIENT_ID: 'skills.eu-1' }).kafka,
    ).toEqual({
      brokers: ['10.0.0.5:9092'],
      clientId: 'skills.eu-1',
      security: {},
    });
  });

  it('reads TLS and SCRAM settings', () => {
    const kafka = { EVENT_LOG: 'kafka', KAFKA_BROKERS: 'kafka:9093' };
    expect(load({ ...BASE, ...kafka, KAFKA_SSL: 'true' }).kafka?.security).toEqual({ tls: {} });
    const full = load({
      ...BASE,
      ...kafka,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: '/etc/kafka/ca.crt',
      KAFKA_SSL_CERT_FILE: '/etc/kafka/user.crt',
      KAFKA_SSL_KEY_FILE: '/etc/kafka/user.key',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: service,
      KAFKA_SASL_PASSWORD: 'a-scram-password',
    });
    expect(full.kafka?.security).toEqual({
      tls: { caFile: '/etc/kafka/ca.crt', certFile: '/etc/kafka/user.crt', keyFile: '/etc/kafka/user.key' },
      sasl: { mechanism: 'scram-sha-512', username: service, password: 'a-scram-password' },
    });
  });

  it('refuses Kafka security settings that cannot work or would weaken it, naming them', () => {
    const kafka = { EVENT_LOG: 'kafka', KAFKA_BROKERS: 'kafka:9093' };
    expect(
      problems(load, { ...kafka, KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }),
    ).toEqual(['"KAFKA_SASL_MECHANISM" must be scram-sha-256 or scram-sha-512 (PLAIN is not accepted)']);
    expect(problems(load, { ...kafka, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      '"KAFKA_SASL_USERNAME" is required with KAFKA_SASL_MECHANISM',
      '"KAFKA_SASL_PASSWORD" is required with KAFKA_SASL_MECHANISM',
    ]);
    expect(problems(load, { ...kafka, KAFKA_SASL_USERNAME: 'u' })).toEqual([
      '"KAFKA_SASL_USERNAME" needs KAFKA_SASL_MECHANISM',
    ]);
    expect(problems(load, { ...kafka, KAFKA_SSL_CA_FILE: '/etc/kafka/ca.crt' })).toEqual([
      '"KAFKA_SSL_CA_FILE" needs KAFKA_SSL=true',
    ]);
    expect(problems(load, { ...kafka, KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/etc/kafka/user.crt' })).toEqual([
      '"value" contains [KAFKA_SSL_CERT_FILE] without its required peers [KAFKA_SSL_KEY_FILE]',
    ]);
    expect(problems(load, { ...kafka, KAFKA_SSL: 'maybe' })).toEqual(['"KAFKA_SSL" must be a boolean']);
  });

  it('refuses SCRAM without TLS, naming the variable, unless every broker is on a loopback address', () => {
    const scram = {
      EVENT_LOG: 'kafka',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: service,
      KAFKA_SASL_PASSWORD: 'a-scram-password',
    };
    const inClear =
      '"KAFKA_SASL_MECHANISM" needs KAFKA_SSL=true: without TLS the SCRAM exchange and every event cross the network in clear (only brokers on a loopback address in KAFKA_BROKERS may go without)';
    expect(problems(load, { ...scram, KAFKA_BROKERS: 'kafka:9093' })).toEqual([inClear]);
    expect(problems(load, { ...scram, KAFKA_BROKERS: '127.0.0.1:19092,10.0.0.5:9092', KAFKA_SSL: 'false' })).toEqual([
      inClear,
    ]);
    // a broker on this machine (a local test broker), or TLS, and SCRAM is accepted
    const local = load({ ...BASE, ...scram, KAFKA_BROKERS: '127.0.0.1:19092, localhost:9092,127.8.0.1:9092' });
    expect(local.kafka).toEqual({
      brokers: ['127.0.0.1:19092', 'localhost:9092', '127.8.0.1:9092'],
      clientId: service,
      security: { sasl: { mechanism: 'scram-sha-512', username: service, password: 'a-scram-password' } },
    });
    expect(load({ ...BASE, ...scram, KAFKA_BROKERS: 'kafka:9093', KAFKA_SSL: 'true' }).kafka?.security).toEqual({
      tls: {},
      sasl: { mechanism: 'scram-sha-512', username: service, password: 'a-scram-password' },
    });
  });

  it('names each bad Kafka variable at start', () => {
    expect(problems(load, { EVENT_LOG: 'kafka' })).toEqual(['"KAFKA_BROKERS" is required when EVENT_LOG=kafka']);
    expect(
      problems(load, { EVENT_LOG: 'kafka', KAFKA_BROKERS: 'kafka://broker', KAFKA_CLIENT_ID: 'has space' }),
    ).toEqual([
      '"KAFKA_BROKERS" must be a comma-separated list of host:port, e.g. kafka-1:9092,kafka-2:9092',
      '"KAFKA_CLIENT_ID" must be 1 to 100 letters, digits, ".", "_" or "-"',
    ]);
    expect(problems(load, { EVENT_LOG: 'rabbitmq' })).toEqual(['"EVENT_LOG" must be one of [postgres, kafka]']);
  });
});

describe('the Kafka clients of both services', () => {
  const secured = {
    EVENT_LOG: 'kafka',
    KAFKA_BROKERS: 'kafka:9093',
    KAFKA_SSL: 'true',
    KAFKA_SSL_CA_FILE: '/nowhere/ca.crt',
  };
  const logger = silentLogger();

  it('are built with the security settings: a CA file that is not there fails the start, naming it', () => {
    const catalog = loadCatalogConfig({ ...BASE, ...secured });
    // no connection is made: the client is built, never used
    const sequelize = createSequelize({ url: BASE.DATABASE_URL });
    expect(() => createEventLog(catalog, { sequelize, logger, rejected: REFUSE_NOTHING })).toThrow(
      /KAFKA_SSL_CA_FILE: cannot read \/nowhere\/ca\.crt/,
    );
    const { kafka } = loadCollectionsConfig({ ...BASE, ...secured });
    if (!kafka) throw new Error('EVENT_LOG=kafka gives a Kafka config');
    expect(() => createKafkaProducer({ ...kafka, logger })).toThrow(/KAFKA_SSL_CA_FILE: cannot read/);
    return sequelize.close();
  });
});
