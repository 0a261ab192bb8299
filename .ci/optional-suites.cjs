/**
 * The optional suites of the test run, and what each needs (.ci/summarize.cjs).
 *
 * A test may skip only for a requirement listed here, chosen at load time
 * (`describe.skip` / `it.skip`), and only while the requirement is absent.
 * The summary probes each requirement the way the suite does, and fails the
 * run when a suite skipped while what it needs was there (a broken probe, a
 * load error swallowed, a condition gone wrong), or when a test skipped that
 * no entry here accounts for. Keep each entry in step with the test file it
 * names: the file, and the full names (describe titles, then the test title)
 * of the tests that may skip.
 */
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const KAFKA_PACKAGE = path.join(ROOT, 'node_modules/@confluentinc/kafka-javascript');
const KAFKA_ADDON = path.join(KAFKA_PACKAGE, 'build/Release/confluent-kafka-javascript.node');

/**
 * What a suite may need. `probe(run)` answers { present, detail }; `run` is
 * the jest run being judged ({ name }): the requirements marked `perRun`
 * differ between runs (the server), the others are properties of this
 * machine and environment, probed once.
 */
const REQUIREMENTS = {
  server: {
    label: 'Postgres server (DATABASE_URL)',
    perRun: true,
    // .ci/run passes DATABASE_URL to the run it names "postgres", and only to it
    probe: async (run) => ({ present: run.name === 'postgres', detail: run.name === 'postgres' ? 'DATABASE_URL run' : 'PGlite run' }),
  },
  kafkaMock: {
    label: 'Kafka mock cluster (@confluentinc/kafka-javascript addon)',
    // the suites' own condition (catalog-service/test/support/events/kafka-mock-cluster.ts): the addon is built
    probe: async () => {
      if (!fs.existsSync(KAFKA_PACKAGE)) return { present: false, detail: 'package not installed (its build failed in npm ci?)' };
      if (!fs.existsSync(KAFKA_ADDON)) return { present: false, detail: 'addon not built' };
      const load = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(KAFKA_PACKAGE)})`], { encoding: 'utf8', timeout: 20_000 });
      return { present: true, detail: load.status === 0 ? 'addon built, loads' : `addon built but does not load: ${firstLine(load.stderr)}` };
    },
  },
  chromium: {
    label: 'Chromium (/usr/bin/chromium)',
    probe: async () => {
      const present = fs.existsSync('/usr/bin/chromium');
      return { present, detail: present ? '/usr/bin/chromium present' : 'no /usr/bin/chromium' };
    },
  },
  redis: {
    label: 'live Redis (REDIS_URL, default redis://127.0.0.1:6379)',
    probe: () => redisAnswers(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
  },
  elasticsearch: {
    label: 'live Elasticsearch (ELASTICSEARCH_URL)',
    probe: async () => {
      const url = process.env.ELASTICSEARCH_URL;
      return { present: Boolean(url), detail: url ? `ELASTICSEARCH_URL=${url}` : 'ELASTICSEARCH_URL unset' };
    },
  },
  kafka: {
    label: 'live Kafka (KAFKA_BROKERS)',
    probe: async () => {
      const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
      return { present: brokers.length > 0, detail: brokers.length ? `KAFKA_BROKERS=${brokers.join(',')}` : 'KAFKA_BROKERS unset' };
    },
  },
  kafkaSasl: {
    label: 'live Kafka SASL_SSL listener (KAFKA_SASL_BROKERS, KAFKA_CA_FILE, KAFKA_COLLECTIONS_PASSWORD, KAFKA_CATALOG_PASSWORD)',
    // the suite's own condition (catalog-service/test/support/events/kafka-live-env.ts): every variable set; `local-servers/kafka.sh env` prints them
    probe: async () => {
      const names = ['KAFKA_SASL_BROKERS', 'KAFKA_CA_FILE', 'KAFKA_COLLECTIONS_PASSWORD', 'KAFKA_CATALOG_PASSWORD'];
      const missing = names.filter((n) => !(process.env[n] ?? '').trim());
      // the passwords are secrets: only their names are ever reported
      return { present: missing.length === 0, detail: missing.length ? `unset: ${missing.join(', ')}` : `KAFKA_SASL_BROKERS=${process.env.KAFKA_SASL_BROKERS}` };
    },
  },
  openssl: {
    label: 'openssl (to make the test broker\'s certificate)',
    probe: async () => {
      const run = spawnSync('openssl', ['version'], { stdio: 'ignore', timeout: 10_000 });
      const present = run.status === 0;
      return { present, detail: present ? 'openssl version answers' : 'no openssl on PATH' };
    },
  },
  topology: {
    label: 'the distributed topology\'s own servers (Java and Maven for local-servers/) and the Postgres server run',
    perRun: true,
    // .ci/run passes DATABASE_URL to the run it names "postgres", and only to it
    probe: async (run) =>
      require('../standalone/test/integration/distributed/servers.cjs').topologyServers(run.name === 'postgres' ? 'postgres://postgres@127.0.0.1:5432/test' : undefined),
  },
  kubectl: {
    label: 'kubectl',
    probe: async () => {
      const run = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore', timeout: 10_000 });
      const present = run.status === 0;
      return { present, detail: present ? 'kubectl version --client answers' : 'no working kubectl on PATH' };
    },
  },
};

/** Each optional suite: the test file, which of its tests may skip (by full name), and what they need. */
const SUITES = [
  { name: 'Kafka mock cluster: event log', file: 'catalog-service/test/unit/events/kafka-event-log.mock.test.ts', needs: ['kafkaMock'] },
  { name: 'Kafka mock cluster: pipeline', file: 'catalog-service/test/integration/events/kafka-pipeline.test.ts', needs: ['kafkaMock'] },
  { name: 'Kafka mock cluster: services', file: 'catalog-service/test/integration/events/kafka-services.test.ts', needs: ['kafkaMock', 'server'] },
  { name: 'live Kafka', file: 'catalog-service/test/integration/events/kafka-event-log.live.test.ts', needs: ['kafka'] },
  { name: 'live Kafka: kafkajs produce, group, rebalance', file: 'catalog-service/test/integration/events/kafka-group.live.test.ts', needs: ['kafka'] },
  { name: 'live Kafka: SASL_SSL and ACLs', file: 'catalog-service/test/integration/events/kafka-sasl-acl.live.test.ts', needs: ['kafkaSasl'] },
  { name: 'live Elasticsearch', file: 'catalog-service/test/integration/engines/elasticsearch-live.test.ts', needs: ['elasticsearch'] },
  { name: 'Chromium docs page', file: 'standalone/test/integration/e2e/api-contract.test.ts', tests: /^the docs page in headless Chromium /, needs: ['chromium'] },
  { name: 'Chromium console', file: 'standalone/test/integration/e2e/console.test.ts', tests: /^the console in headless Chromium /, needs: ['chromium'] },
  { name: 'Chromium console: collections', file: 'standalone/test/integration/e2e/console-collections.test.ts', tests: /^the console in headless Chromium: catalog and personal collections /, needs: ['chromium'] },
  { name: 'Chromium console: versions and trust', file: 'standalone/test/integration/e2e/console-trust.test.ts', tests: /^the console in headless Chromium: versions and trust /, needs: ['chromium'] },
  { name: 'Chromium console: governance', file: 'standalone/test/integration/e2e/console-governance.test.ts', tests: /^the console in headless Chromium: governed team collections /, needs: ['chromium'] },
  { name: 'Chromium console: workspaces', file: 'standalone/test/integration/e2e/console-workspaces.test.ts', tests: /^the console in headless Chromium: team workspaces, with two people /, needs: ['chromium'] },
  { name: 'Chromium console: single sign-on', file: 'standalone/test/integration/e2e/console-accounts.test.ts', tests: /^the console in headless Chromium: single sign-on linked to an account /, needs: ['chromium'] },
  { name: 'Kafka TLS handshake', file: 'common/test/integration/kafka-security.test.ts', tests: /^kafkaSecurityConfig on a TLS handshake with a broker /, needs: ['openssl'] },
  { name: 'server: database roles', file: 'standalone/test/integration/security/database-roles.test.ts', needs: ['server'] },
  { name: 'Redis: rate limits', file: 'gateway/test/integration/redis-rate-limit.test.ts', tests: /^RedisRateLimitStore on a live Redis /, needs: ['redis'] },
  { name: 'Redis: replay guard', file: 'common/test/integration/principal.test.ts', tests: /^RedisReplayGuard on a live Redis /, needs: ['redis'] },
  { name: 'Redis: a stall and its end', file: 'common/test/integration/fail-open-redis.test.ts', needs: ['redis'] },
  { name: 'Redis: two replicas', file: 'standalone/test/integration/reliability/multi-replica.test.ts', needs: ['redis'] },
  { name: 'Redis: shared sign-in throttle', file: 'gateway/test/integration/redis-throttle.test.ts', needs: ['redis'] },
  { name: 'Redis: a user per service', file: 'standalone/test/integration/security/redis-acl.test.ts', needs: ['redis'] },
  { name: 'distributed topology', file: 'standalone/test/integration/distributed/topology.test.ts', needs: ['topology', 'server'] },
  { name: 'kubectl kustomize', file: 'deploy/test/integration/kustomize-renderer.test.ts', tests: /exactly as kubectl kustomize does$/, needs: ['kubectl'] },
  {
    name: 'server: relay leader and late commit',
    file: 'collections-service/test/integration/relay.test.ts',
    tests: /^OutboxRelay (lets one relay publish at a time|keeps an item's events in version order)/,
    needs: ['server'],
  },
  { name: 'server: one pruner at a time', file: 'collections-service/test/integration/outbox-pruner.test.ts', tests: /lets one replica prune at a time/, needs: ['server'] },
  {
    name: 'server: memory engine late commit',
    file: 'catalog-service/test/integration/engines/memory.engine.test.ts',
    tests: /does not skip a write whose transaction commits after a later one was read/,
    needs: ['server'],
  },
];

/** A PING answered by +PONG within 1.5 s: the tests' probe (common/src/testing/redis.ts). */
function redisAnswers(url) {
  let host, port;
  try {
    const u = new URL(url);
    host = u.hostname;
    port = Number(u.port || 6379);
  } catch {
    return Promise.resolve({ present: false, detail: `REDIS_URL is not a URL: ${url}` });
  }
  return new Promise((resolve) => {
    const done = (answered) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ present: answered, detail: `${host}:${port} ${answered ? 'answers PING' : 'does not answer'}` });
    };
    const socket = net.connect(port, host);
    const timer = setTimeout(() => done(false), 1500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(String(d).startsWith('+PONG')));
    socket.on('error', () => done(false));
  });
}

function firstLine(text) {
  return String(text ?? '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
}

module.exports = { REQUIREMENTS, SUITES, firstLine };
