/**
 * Whether the servers of the distributed-topology suite answer: Elasticsearch
 * 9 and Kafka's SASL_SSL listener as local-servers/ runs them, and the local
 * Postgres server. Shared by the suite (skipped at load time without them)
 * and .ci/optional-suites.cjs, so the two cannot disagree.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PROBE = `
set -e
es="$(local-servers/elasticsearch.sh url 9)"
curl -fsS --max-time 5 "$es/_cluster/health" >/dev/null || { echo "no Elasticsearch 9 at $es"; exit 1; }
eval "$(local-servers/kafka.sh env 2>/dev/null)" || true
[ -n "\${KAFKA_SASL_BROKERS:-}" ] || { echo "local-servers/kafka.sh env printed no KAFKA_SASL_BROKERS"; exit 1; }
first="\${KAFKA_SASL_BROKERS%%,*}"
(exec 3<>"/dev/tcp/\${first%:*}/\${first#*:}") 2>/dev/null || { echo "no Kafka at $first"; exit 1; }
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "no Postgres at 127.0.0.1:5432"; exit 1; }
echo "Elasticsearch at $es, Kafka at $first, Postgres at 127.0.0.1:5432"
`;

function topologyServers() {
  const run = spawnSync('bash', ['-c', PROBE], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { present: run.status === 0, detail: (run.stdout || run.stderr || 'probe failed').trim().split('\n').pop() };
}

module.exports = { topologyServers };
