#!/usr/bin/env bash
# `npm run test:live`: starts the real servers (start.sh) and runs every live
# suite, the Elasticsearch ones once on 8.x and once on 9.x; the Kafka and
# distributed-topology suites run with the 9.x pass. The same suites run
# inside `.ci/run`'s two test runs. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(local-servers/start.sh)"
npm run build --silent
export NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning"
ELASTICSEARCH_URL="$ES8_URL" npx jest --testPathPatterns 'elasticsearch-live\.test\.ts$' "$@"
ELASTICSEARCH_URL="$ES9_URL" npx jest --testPathPatterns '(live\.test\.ts|/distributed/[^/]*\.test\.ts)$' "$@"
