#!/usr/bin/env bash
# Starts every real server the live suites and the distributed topology use
# (Elasticsearch 8 and 9, Kafka), each only if it is not running yet, and
# prints their addresses as shell assignments for `eval`:
#
#   eval "$(local-servers/start.sh)"
#
# Needs a JDK 17, the Temurin JDK 25 under /usr/lib/jvm and Maven (Maven
# Central is the only download). Stop them with local-servers/stop.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/common.sh"
command -v mvn >/dev/null 2>&1 || die "no Maven on PATH: the servers are fetched from Maven Central with it"
started=$SECONDS
"$here/elasticsearch.sh" start 8
"$here/elasticsearch.sh" start 9
"$here/kafka.sh" start
log "servers ready in $((SECONDS - started)) s"
printf 'export ES8_URL=%q ES9_URL=%q\n' "$("$here/elasticsearch.sh" url 8)" "$("$here/elasticsearch.sh" url 9)"
"$here/kafka.sh" env
