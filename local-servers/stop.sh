#!/usr/bin/env bash
# Stops what local-servers/start.sh started; their data stays (wipe: elasticsearch.sh wipe 8|9, kafka.sh wipe).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/elasticsearch.sh" stop 8
"$here/elasticsearch.sh" stop 9
"$here/kafka.sh" stop
