/**
 * Whether the distributed-topology suite can run here: it starts its own
 * Elasticsearch 9 and Kafka (local-servers/, instance "topology", ports
 * shifted by 1000, so its restarts never disturb the other live suites),
 * which needs Java and Maven, and it creates its database on the Postgres
 * server of DATABASE_URL (so it runs in the server run only). Shared by the
 * suite (skipped at load time without them) and .ci/optional-suites.cjs, so
 * the two cannot disagree.
 */
'use strict';
const { spawnSync } = require('node:child_process');

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** `databaseUrl`: the run's DATABASE_URL (the summary passes the one of the run it judges). */
function topologyServers(databaseUrl = process.env.DATABASE_URL) {
  if (!databaseUrl) return { present: false, detail: 'DATABASE_URL unset (PGlite run)' };
  if (!has('java') || !has('mvn')) return { present: false, detail: 'no Java or Maven to run local-servers/' };
  return { present: true, detail: `Java and Maven for local-servers/, Postgres at ${new URL(databaseUrl).host}` };
}

/** The environment local-servers/ reads to run the suite's own servers. */
const TOPOLOGY_SERVERS_ENV = { LOCAL_SERVERS_INSTANCE: 'topology', LOCAL_SERVERS_PORT_OFFSET: '1000' };

module.exports = { topologyServers, TOPOLOGY_SERVERS_ENV };
