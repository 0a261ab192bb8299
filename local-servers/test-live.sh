#!/usr/bin/env bash
# `npm run test:live`: starts the real servers (start.sh) and runs every live
# suite, the Elasticsearch ones once on 8.x and once on 9.x; the Kafka and
# distributed-topology suites run with the 9.x pass (the topology on its own
# servers, and only with a Postgres server: DATABASE_URL, or the one on
# 127.0.0.1:5432). The same suites run inside `.ci/run`'s two test runs.
# Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(local-servers/start.sh)"
npm run build --silent
export NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning"
ELASTICSEARCH_URL="$ES8_URL" npx jest --testPathPatterns 'elasticsearch-live\.test\.ts$' "$@"
if [ -z "${DATABASE_URL:-}" ] && command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; then
  export DATABASE_URL=postgres://postgres@127.0.0.1:5432/test
fi
ELASTICSEARCH_URL="$ES9_URL" npx jest --testPathPatterns '(live\.test\.ts|/distributed/[^/]*\.test\.ts)$' "$@"
