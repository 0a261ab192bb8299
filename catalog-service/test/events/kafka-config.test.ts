import { ConfigError } from '@skills/common';
import { loadCatalogConfig } from '../../src/config';
import { loadCollectionsConfig } from '../../../collections-service/src/config';

const BASE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/catalog', PRINCIPAL_PUBLIC_KEYS_FILE: '/run/secrets/principal-public-keys.pem' };

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
    expect(config.kafka).toEqual({ brokers: ['kafka-1:9092', 'kafka-2:9093'], clientId: service });
    expect(load({ ...BASE, EVENT_LOG: 'kafka', KAFKA_BROKERS: '10.0.0.5:9092', KAFKA_CLIENT_ID: 'skills.eu-1' }).kafka).toEqual({
      brokers: ['10.0.0.5:9092'],
      clientId: 'skills.eu-1',
    });
  });

  it('names each bad Kafka variable at start', () => {
    expect(problems(load, { EVENT_LOG: 'kafka' })).toEqual(['"KAFKA_BROKERS" is required when EVENT_LOG=kafka']);
    expect(problems(load, { EVENT_LOG: 'kafka', KAFKA_BROKERS: 'kafka://broker', KAFKA_CLIENT_ID: 'has space' })).toEqual([
      '"KAFKA_BROKERS" must be a comma-separated list of host:port, e.g. kafka-1:9092,kafka-2:9092',
      '"KAFKA_CLIENT_ID" must be 1 to 100 letters, digits, ".", "_" or "-"',
    ]);
    expect(problems(load, { EVENT_LOG: 'rabbitmq' })).toEqual(['"EVENT_LOG" must be one of [postgres, kafka]']);
  });
});
