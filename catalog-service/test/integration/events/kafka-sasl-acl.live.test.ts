/**
 * The TLS + SCRAM-SHA-512 listener and the ACLs that deploy/ sets up
 * (deploy/docker/kafka/certificates.sh and setup.sh; docs/kafka.md "Access
 * control"), met by kafkajs as each service configures it. Needs
 * KAFKA_SASL_BROKERS, KAFKA_CA_FILE, KAFKA_COLLECTIONS_PASSWORD and
 * KAFKA_CATALOG_PASSWORD (`local-servers/kafka.sh env`); skipped otherwise.
 *
 * The ACLs name one topic and one group, so this suite uses them:
 * skills.changes.v1 and catalog-indexer. It finds its own events among any
 * earlier ones; a catalog-service consuming the same broker would share the
 * group's partitions with it, so run it on a broker of its own.
 */
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { SKILL_CHANGES_TOPIC, type SkillChangeEvent } from '@skills/common';
import { createKafkaClient, kafkaSecurityConfig } from '@skills/common/kafka';
import { createKafkaProducer, KafkaOutboxPublisher } from '../../../../collections-service/src/relay';
import { KafkaEventLog } from '../../../src/events/kafka';
import { REFUSE_NOTHING } from '../../support/rejected-events';

import { FAST_GROUP } from '../../support/events/kafka-mock-cluster';
import { outboxRow, saslEnv, serviceSecurity, type SaslEnv } from '../../support/events/kafka-live-env';
import { eventually, silentLogger } from '@skills/common/testing';

const logger = silentLogger('kafka-live-test');
const describeSasl = saslEnv ? describe : describe.skip;
const GROUP = 'catalog-indexer';
type User = keyof SaslEnv['passwords'];

/** The Kafka error code name (kafkajs's `type`) behind what a call threw, through kafkajs's wrappers. */
function kafkaErrorType(err: unknown): string | undefined {
  const e = err as { type?: string; cause?: unknown; originalError?: unknown; errors?: unknown[] } | undefined;
  if (!e) return undefined;
  return (
    e.type ?? kafkaErrorType(e.cause) ?? kafkaErrorType(e.originalError) ?? e.errors?.map(kafkaErrorType).find(Boolean)
  );
}

describeSasl('the SASL_SSL listener deploy/ configures, with its ACLs', () => {
  const env = saslEnv as SaslEnv;
  /** A client as `user`'s service builds it from its KAFKA_* variables; `systemCas`: without the CA file. */
  const security = (user: User, { password = env.passwords[user], systemCas = false } = {}) => {
    const settings = serviceSecurity(env, user, password);
    return systemCas ? { ...settings, tls: {} } : settings;
  };
  const client = (user: User, options?: Parameters<typeof security>[1]) =>
    createKafkaClient({ brokers: env.brokers, clientId: `live-${user}`, logger, security: security(user, options) });
  const publisherAs = (user: User) =>
    new KafkaOutboxPublisher(
      createKafkaProducer({ brokers: env.brokers, clientId: `live-${user}`, logger, security: security(user) }),
    );

  /**
   * Runs a consumer of `group` as `user` until its group join fails; answers
   * the broker's error. kafkajs reports only "Failed to find group
   * coordinator" (KafkaJSGroupCoordinatorNotFound): FindCoordinator's own
   * error is swallowed (cluster/index.js `findGroupCoordinatorMetadata` bails,
   * `brokerPool.withBroker` drops it) and appears in its debug log alone.
   */
  const groupRefusal = async (user: User, group: string): Promise<{ crash: string; brokerError?: string }> => {
    const brokerErrors: string[] = [];
    const kafka = new Kafka({
      brokers: env.brokers,
      clientId: `live-${user}`,
      ...kafkaSecurityConfig(security(user)),
      logLevel: logLevel.DEBUG,
      logCreator:
        () =>
        ({ log }) => {
          const type = (log as { error?: { type?: string } }).error?.type;
          if (log.message === 'Tried to find group coordinator' && type) brokerErrors.push(type);
        },
    });
    const consumer: Consumer = kafka.consumer({
      groupId: group,
      retry: { retries: 0, restartOnFailure: async () => false },
    });
    const crashed = new Promise<Error>((resolve) =>
      consumer.on(consumer.events.CRASH, ({ payload }) => resolve(payload.error)),
    );
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [SKILL_CHANGES_TOPIC] });
      await consumer.run({ eachMessage: async () => undefined });
      return { crash: (await crashed).name, brokerError: brokerErrors[0] };
    } finally {
      await consumer.disconnect();
    }
  };
  const REFUSED_GROUP = { crash: 'KafkaJSGroupCoordinatorNotFound', brokerError: 'GROUP_AUTHORIZATION_FAILED' };

  it('carries an event from collections-service to catalog-service in group catalog-indexer, over TLS and SCRAM-SHA-512', async () => {
    const publisher = publisherAs('collections-service');
    const row = outboxRow(SKILL_CHANGES_TOPIC);
    const received: SkillChangeEvent[] = [];
    const log = new KafkaEventLog({
      kafka: client('catalog-service'),
      logger,
      rejected: REFUSE_NOTHING,
      ...FAST_GROUP,
    });
    try {
      await publisher.publish([row]);
      await log.subscribe(GROUP, async (events) => void received.push(...events));
      await eventually(() => received.some((e) => e.eventId === row.event.eventId), 'the published event');
      expect(received.find((e) => e.eventId === row.event.eventId)).toEqual(row.event);
    } finally {
      await Promise.all([publisher.close(), log.close()]);
    }
  });

  it('refuses catalog-service a write to the topic', async () => {
    const publisher = publisherAs('catalog-service');
    try {
      const refused = await publisher.publish([outboxRow(SKILL_CHANGES_TOPIC)]).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(kafkaErrorType(refused)).toBe('TOPIC_AUTHORIZATION_FAILED');
    } finally {
      await publisher.close();
    }
  });

  it('refuses collections-service the group catalog-indexer: it has no group to read the topic with', async () => {
    expect(await groupRefusal('collections-service', GROUP)).toEqual(REFUSED_GROUP);
  });

  it('refuses catalog-service any consumer group but catalog-indexer', async () => {
    expect(await groupRefusal('catalog-service', 'another-group')).toEqual(REFUSED_GROUP);
  });

  it('refuses a wrong SCRAM password', async () => {
    const admin = client('catalog-service', { password: 'not-the-password' }).admin();
    await expect(admin.connect()).rejects.toMatchObject({ name: 'KafkaJSSASLAuthenticationError' });
    await admin.disconnect();
  });

  it('refuses to talk to the broker without its CA: its certificate does not chain to the system CAs', async () => {
    const admin = client('catalog-service', { systemCas: true }).admin();
    await expect(admin.connect()).rejects.toThrow(/certificate/i);
    await admin.disconnect();
  });
});
