/**
 * docker-compose.yml: valid against the Compose Specification schema, public
 * images on pinned tags, started in order, only the gateway on the host, no
 * secret with a default, and an environment each service accepts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogConfig } from '@skills/catalog-service';
import { loadCollectionsConfig } from '@skills/collections-service';
import { loadGatewayConfig } from '@skills/gateway';
import { loadMigrateConfig } from '../../../standalone/src/migrate';
import { InterpolationError, interpolate, readCompose, readComposeRaw, type ComposeFile } from '../support/compose';
import { isPinnedImage } from '../support/manifest-policy';
import { composeSchemaErrors } from '../support/schemas';

const FILE = join(__dirname, '..', '..', '..', 'docker-compose.yml');
/** What a developer's .env holds (docs/deploy.md shows how to make one). */
const DOT_ENV = {
  POSTGRES_PASSWORD: 'p'.repeat(24),
  POSTGRES_OWNER_PASSWORD: 'o'.repeat(24),
  POSTGRES_GATEWAY_PASSWORD: 'g'.repeat(24),
  POSTGRES_COLLECTIONS_PASSWORD: 'l'.repeat(24),
  POSTGRES_CATALOG_PASSWORD: 't'.repeat(24),
  ITEMS_READER_TOKEN: 'r'.repeat(40),
  KAFKA_COLLECTIONS_PASSWORD: 'k'.repeat(40),
  KAFKA_CATALOG_PASSWORD: 'c'.repeat(40),
  ADMIN_TOKEN: 'a'.repeat(40),
};
const APP_SERVICES = ['gateway', 'catalog-service', 'collections-service'];
const ONE_SHOTS = ['principal-keys', 'migrate', 'kafka-certificates', 'kafka-setup', 'load-sample'];

function envOf(compose: ComposeFile, service: string): Record<string, string> {
  const environment = compose.services[service].environment ?? {};
  return Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)]));
}

describe('docker-compose.yml', () => {
  const compose = readCompose(FILE, DOT_ENV);

  it('is valid against the Compose Specification schema', () => {
    expect(composeSchemaErrors(compose)).toEqual([]);
  });

  it('the schema check catches an unknown or mistyped field', () => {
    const broken = structuredClone(compose);
    (broken.services.gateway as Record<string, unknown>).helthcheck = {};
    (broken.services.postgres as Record<string, unknown>).ports = [{ target: 'five' }];
    const errors = composeSchemaErrors(broken).join('\n');
    expect(errors).toContain('helthcheck');
    expect(errors).toContain('/services/postgres/ports/0/target');
  });

  it('names public images on pinned tags, and one image built from deploy/Dockerfile for our processes', () => {
    const images = Object.entries(compose.services).map(([name, s]) => [name, s.image ?? '']);
    expect(images.filter(([, image]) => !isPinnedImage(image))).toEqual([]);
    const external = new Set(
      images.map(([, image]) => image.replace(/:[^:/]+$/, '')).filter((i) => i !== 'skills-catalog'),
    );
    expect(external).toEqual(new Set(['postgres', 'docker.elastic.co/elasticsearch/elasticsearch', 'apache/kafka']));
    expect(compose.services.postgres.image).toMatch(/^postgres:16\./);
    for (const name of [...APP_SERVICES, 'principal-keys', 'migrate', 'load-sample']) {
      expect(compose.services[name].image).toBe('skills-catalog:1.0.0');
      expect(compose.services[name].build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile' });
    }
  });

  it('publishes only the gateway, on the host loopback only', () => {
    const published = Object.entries(compose.services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([name, s]) => [name, s.ports])).toEqual([['gateway', ['127.0.0.1:8080:8080']]]);
  });

  it('comes up in order: datastores healthy, migration done, services healthy, then the sample load', () => {
    for (const name of ['postgres', 'elasticsearch', 'kafka']) expect(compose.services[name].healthcheck).toBeDefined();
    for (const name of APP_SERVICES) {
      expect(compose.services[name].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(compose.services[name].depends_on?.['principal-keys']).toEqual({
        condition: 'service_completed_successfully',
      });
    }
    expect(compose.services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(compose.services['catalog-service'].depends_on?.elasticsearch).toEqual({ condition: 'service_healthy' });
    expect(compose.services.gateway.depends_on?.['catalog-service']).toEqual({ condition: 'service_healthy' });
    expect(compose.services.gateway.depends_on?.['collections-service']).toEqual({ condition: 'service_healthy' });
    expect(compose.services['load-sample'].depends_on).toEqual({ gateway: { condition: 'service_healthy' } });
    for (const name of ONE_SHOTS) expect(compose.services[name].restart).toBe('no');
  });

  it('runs our containers read-only, without capabilities or privilege escalation', () => {
    for (const name of [...APP_SERVICES, 'principal-keys', 'migrate', 'load-sample']) {
      const service = compose.services[name];
      expect([service.read_only, service.cap_drop, service.security_opt]).toEqual([
        true,
        ['ALL'],
        ['no-new-privileges:true'],
      ]);
    }
  });

  it('has no default for any secret: compose stops and names the missing variable', () => {
    for (const variable of Object.keys(DOT_ENV)) {
      const env: Record<string, string> = { ...DOT_ENV };
      delete env[variable];
      expect(() => readCompose(FILE, env)).toThrow(InterpolationError);
      expect(() => readCompose(FILE, env)).toThrow(`required variable ${variable} is missing a value`);
    }
    expect(interpolate('a$${b}${C:-d}', {})).toBe('a${b}d');
  });

  it('gives each service an environment its own config accepts, wired to the others by service name', () => {
    // HOST=0.0.0.0 comes from the image (deploy/Dockerfile): off loopback, PUBLIC_URL is required
    const gateway = loadGatewayConfig({ HOST: '0.0.0.0', ...envOf(compose, 'gateway') });
    expect(gateway.port).toBe(8080);
    expect(gateway.publicUrl).toBe('http://127.0.0.1:8080');
    expect([gateway.catalogUrl, gateway.collectionsUrl]).toEqual([
      'http://catalog-service:8081',
      'http://collections-service:8082',
    ]);
    expect(loadCatalogConfig(envOf(compose, 'catalog-service'))).toMatchObject({
      port: 8081,
      searchEngine: 'elasticsearch',
      eventLog: 'kafka',
    });
    expect(loadCollectionsConfig(envOf(compose, 'collections-service'))).toMatchObject({ port: 8082 });
    const urls = Object.fromEntries(
      [...APP_SERVICES, 'migrate'].map((name) => [name, envOf(compose, name).DATABASE_URL]),
    );
    expect(urls).toEqual({
      gateway: `postgres://skills_gateway:${DOT_ENV.POSTGRES_GATEWAY_PASSWORD}@postgres:5432/skills`,
      'catalog-service': `postgres://skills_catalog:${DOT_ENV.POSTGRES_CATALOG_PASSWORD}@postgres:5432/skills`,
      'collections-service': `postgres://skills_collections:${DOT_ENV.POSTGRES_COLLECTIONS_PASSWORD}@postgres:5432/skills`,
      migrate: `postgres://skills_owner:${DOT_ENV.POSTGRES_OWNER_PASSWORD}@postgres:5432/skills`,
    });
    expect(envOf(compose, 'load-sample')).toMatchObject({
      GATEWAY_URL: 'http://gateway:8080',
      ADMIN_TOKEN: DOT_ENV.ADMIN_TOKEN,
    });
  });

  it('gives the private principal key to the gateway alone; the services mount only the public keys, read-only', () => {
    const mounts = (name: string) => compose.services[name].volumes ?? [];
    expect(mounts('gateway')).toEqual(['principal-signing:/var/lib/skills/principal-signing:ro']);
    for (const name of ['catalog-service', 'collections-service']) {
      expect(mounts(name)).toEqual([
        'principal-public:/var/lib/skills/principal-public:ro',
        'kafka-ca:/var/lib/skills/kafka-ca:ro',
      ]);
      expect(envOf(compose, name)).not.toHaveProperty('PRINCIPAL_SIGNING_KEY_FILE');
      expect(envOf(compose, name).PRINCIPAL_PUBLIC_KEYS_FILE).toBe(
        '/var/lib/skills/principal-public/principal-public-keys.pem',
      );
    }
    expect(envOf(compose, 'gateway').PRINCIPAL_SIGNING_KEY_FILE).toBe(
      '/var/lib/skills/principal-signing/principal-signing-key.pem',
    );
    const holders = Object.entries(compose.services).filter(([, s]) =>
      (s.volumes ?? []).some((v) => String(v).startsWith('principal-signing:')),
    );
    expect(holders.map(([name]) => name).sort()).toEqual(['gateway', 'principal-keys']);
    expect(compose.services['principal-keys'].command).toEqual(['principal-keys', 'init']);
    // no shared secret signs principals any more
    expect(JSON.stringify(readComposeRaw(FILE))).not.toContain('PRINCIPAL_SECRET');
  });

  it('talks to Kafka over TLS with SCRAM, a user per service, and leaves no plaintext listener reachable from another container', () => {
    const kafka = envOf(compose, 'kafka');
    const listeners = Object.fromEntries(
      kafka.KAFKA_LISTENERS.split(',').map((l) => l.split('://') as [string, string]),
    );
    const protocols = Object.fromEntries(
      kafka.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP.split(',').map((p) => p.split(':') as [string, string]),
    );
    for (const [name, address] of Object.entries(listeners)) {
      // every listener is either authenticated and encrypted, or bound to the container's loopback
      expect(protocols[name] === 'SASL_SSL' || address.startsWith('127.0.0.1:')).toBe(true);
    }
    expect(protocols.CLIENT).toBe('SASL_SSL');
    expect(kafka).toMatchObject({
      KAFKA_SASL_ENABLED_MECHANISMS: 'SCRAM-SHA-512',
      KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    });
    expect(compose.services['kafka-setup']).toMatchObject({ network_mode: 'service:kafka' });
    for (const [name, password] of [
      ['collections-service', DOT_ENV.KAFKA_COLLECTIONS_PASSWORD],
      ['catalog-service', DOT_ENV.KAFKA_CATALOG_PASSWORD],
    ]) {
      const config =
        name === 'catalog-service'
          ? loadCatalogConfig(envOf(compose, name))
          : loadCollectionsConfig(envOf(compose, name));
      expect(config.kafka?.security).toEqual({
        tls: { caFile: '/var/lib/skills/kafka-ca/ca.crt' },
        sasl: { mechanism: 'scram-sha-512', username: name, password },
      });
    }
  });

  it('runs every service as a database role of its own, granted by the migrate command running as the owner; the superuser serves none', () => {
    expect(loadMigrateConfig(envOf(compose, 'migrate'))).toMatchObject({
      roles: { gateway: 'skills_gateway', collections: 'skills_collections', catalog: 'skills_catalog' },
      eventLog: 'kafka',
    });
    const roles = readFileSync(join(__dirname, '..', '..', 'docker', 'postgres', 'roles.sh'), 'utf8');
    for (const role of ['skills_owner', 'skills_gateway', 'skills_collections', 'skills_catalog'])
      expect(roles).toContain(`CREATE ROLE ${role} LOGIN`);
    expect(compose.services.postgres.volumes).toContain(
      './deploy/docker/postgres/roles.sh:/docker-entrypoint-initdb.d/roles.sh:ro',
    );
    const superuser = envOf(compose, 'postgres').POSTGRES_USER;
    for (const name of [...APP_SERVICES, 'migrate'])
      expect(new URL(envOf(compose, name).DATABASE_URL).username).not.toBe(superuser);
  });

  it('keeps the secrets themselves out of the file', () => {
    const raw = JSON.stringify(readComposeRaw(FILE));
    for (const variable of Object.keys(DOT_ENV)) {
      expect(raw).not.toMatch(new RegExp(`${variable}:-`));
    }
  });
});
