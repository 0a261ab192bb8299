/**
 * The distributed launcher runs the services with docker-compose.yml's own
 * environments: what compose sets reaches each process, pointed at this
 * machine, and a host, volume or service compose adds that the launcher does
 * not know stops it with a message instead of running half-configured.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCompose } from '../../../src/distributed/compose-file';
import {
  ComposeDriftError,
  ENTRY_POINTS,
  RUN_SERVICES,
  topologyEnvironments,
  type LocalTopology,
} from '../../../src/distributed/topology-env';

const ROOT = join(__dirname, '..', '..', '..', '..');
const COMPOSE = join(ROOT, 'docker-compose.yml');
const LOCAL: LocalTopology = {
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/skills_topology_x',
  roles: { owner: 'o_x', gateway: 'g_x', collections: 'l_x', catalog: 'c_x' },
  elasticsearchUrl: 'http://127.0.0.1:9202',
  elasticsearchIndex: 'skills-topology-x',
  kafka: {
    saslBrokers: '127.0.0.1:19093',
    caFile: '/srv/ca.crt',
    collectionsPassword: 'k'.repeat(40),
    catalogPassword: 'c'.repeat(40),
  },
  principalSigningDir: '/run/x/principal-signing',
  principalPublicDir: '/run/x/principal-public',
  adminToken: 'a'.repeat(40),
  itemsReaderToken: 'r'.repeat(40),
  logLevel: 'warn',
  ports: { gateway: 18080, gatewayMetrics: 19464, collections: 18082, catalog: 18081 },
};
const DOT_ENV = {
  ADMIN_TOKEN: LOCAL.adminToken,
  ITEMS_READER_TOKEN: LOCAL.itemsReaderToken,
  KAFKA_COLLECTIONS_PASSWORD: 'k'.repeat(40),
  KAFKA_CATALOG_PASSWORD: 'c'.repeat(40),
  POSTGRES_PASSWORD: 'p'.repeat(24),
  POSTGRES_OWNER_PASSWORD: 'p'.repeat(24),
  POSTGRES_GATEWAY_PASSWORD: 'p'.repeat(24),
  POSTGRES_COLLECTIONS_PASSWORD: 'p'.repeat(24),
  POSTGRES_CATALOG_PASSWORD: 'p'.repeat(24),
  LOG_LEVEL: 'warn',
};

describe('topologyEnvironments', () => {
  const compose = readCompose(COMPOSE, DOT_ENV);
  const sut = topologyEnvironments(compose, LOCAL);

  it('gives every process each variable compose sets, and only the listen port and process name besides', () => {
    for (const service of RUN_SERVICES) {
      const composed = Object.keys(compose.services[service].environment ?? {});
      const extra = Object.keys(sut[service]).filter((name) => !composed.includes(name));
      expect({ service, missing: composed.filter((name) => !(name in sut[service])) }).toEqual({
        service,
        missing: [],
      });
      expect({
        service,
        extra: extra.filter((name) => !['SKILLS_PROCESS', 'PORT', 'METRICS_PORT'].includes(name)),
      }).toEqual({ service, extra: [] });
    }
  });

  it('runs catalog-service as the deployment does: Elasticsearch, Kafka over TLS with SCRAM, its own role on the run database', () => {
    expect(sut['catalog-service']).toMatchObject({
      SEARCH_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: 'http://127.0.0.1:9202',
      ELASTICSEARCH_INDEX: 'skills-topology-x',
      EVENT_LOG: 'kafka',
      KAFKA_BROKERS: '127.0.0.1:19093',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: '/srv/ca.crt',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'catalog-service',
      KAFKA_SASL_PASSWORD: 'c'.repeat(40),
      DATABASE_URL: 'postgres://c_x@127.0.0.1:5432/skills_topology_x',
      COLLECTIONS_URL: 'http://127.0.0.1:18082',
      PRINCIPAL_PUBLIC_KEYS_FILE: '/run/x/principal-public/principal-public-keys.pem',
    });
    expect(sut.gateway).toMatchObject({
      CATALOG_URL: 'http://127.0.0.1:18081',
      PORT: '18080',
      PUBLIC_URL: 'http://127.0.0.1:18080',
      PRINCIPAL_SIGNING_KEY_FILE: '/run/x/principal-signing/principal-signing-key.pem',
    });
    expect(sut.migrate).toMatchObject({
      DATABASE_URL: 'postgres://o_x@127.0.0.1:5432/skills_topology_x',
      CATALOG_DB_ROLE: 'c_x',
      EVENT_LOG: 'kafka',
    });
  });

  it('stops on a compose host it does not map, naming the service and variable', () => {
    const drifted = structuredClone(compose);
    drifted.services['catalog-service'].environment = {
      ...drifted.services['catalog-service'].environment,
      REDIS_URL: 'redis://redis:6379',
    };
    drifted.services.redis = { image: 'redis:7.4' };
    expect(() => topologyEnvironments(drifted, LOCAL)).toThrow(ComposeDriftError);
    expect(() => topologyEnvironments(drifted, LOCAL)).toThrow(/catalog-service: REDIS_URL/);
  });

  it('stops on a volume path it does not map', () => {
    const drifted = structuredClone(compose);
    drifted.services.gateway.environment = {
      ...drifted.services.gateway.environment,
      CONSOLE_DIR: '/var/lib/skills/console',
    };
    expect(() => topologyEnvironments(drifted, LOCAL)).toThrow(/gateway: CONSOLE_DIR/);
  });

  it('starts each process from the file the image entrypoint execs', () => {
    const entrypoint = readFileSync(join(ROOT, 'deploy', 'docker', 'entrypoint.sh'), 'utf8');
    for (const service of RUN_SERVICES) {
      const branch = new RegExp(`\\n\\s*${service}\\)[\\s\\S]*?exec node (\\S+)`).exec(entrypoint);
      expect({ service, file: branch?.[1] }).toEqual({ service, file: ENTRY_POINTS[service] });
    }
  });
});
