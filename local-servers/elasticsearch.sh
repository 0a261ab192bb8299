#!/usr/bin/env bash
# A real single-node Elasticsearch on loopback, from the integration-test
# distribution Maven Central serves (org.elasticsearch.distribution.integ-test-zip:
# the bare server: no bundled JDK, and of its modules only transport-netty4,
# x-pack-core and x-pack-security, turned off here; docs/elasticsearch.md says
# what the engine may use because of it).
#
#   local-servers/elasticsearch.sh start 8|9   fetch if needed, start, wait for yellow
#   local-servers/elasticsearch.sh stop 8|9
#   local-servers/elasticsearch.sh url 8|9     prints the node's URL
#
# 8.x runs on JDK 17, 9.x on the Temurin JDK 25 (9.x needs 21 or newer).
# Data is kept between starts (a restart keeps the indices); `wipe` removes it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/common.sh"

# Pinned: the newest 8.19 patch and the newest 9.x Maven Central serves
# (its maven-metadata.xml stops at 8.19.21; 9.x zips are served all the same).
ES8_VERSION=8.19.21
ES9_VERSION=9.5.4

major="${2:-}"
case "$major" in
  8) version=$ES8_VERSION java_home=$JDK17 port=${ES8_PORT:-$((9201 + LOCAL_SERVERS_PORT_OFFSET))} ;;
  9) version=$ES9_VERSION java_home=$JDK25 port=${ES9_PORT:-$((9202 + LOCAL_SERVERS_PORT_OFFSET))} ;;
  *) die "usage: $0 start|stop|url|wipe 8|9" ;;
esac
home="$LOCAL_SERVERS_DIR/elasticsearch-$version"
state="$(state_dir "es$major")"
pidfile="$state/elasticsearch.pid"
url="http://127.0.0.1:$port"

install() {
  [ -x "$home/bin/elasticsearch" ] && return 0
  local zip
  zip="$(maven_artifact "org.elasticsearch.distribution.integ-test-zip:elasticsearch:$version:zip" \
    "org/elasticsearch/distribution/integ-test-zip/elasticsearch/$version/elasticsearch-$version.zip")"
  log "unpacking Elasticsearch $version"
  mkdir -p "$LOCAL_SERVERS_DIR"
  rm -rf "$home.partial"
  mkdir "$home.partial"
  unzip -q "$zip" -d "$home.partial"
  mv "$home.partial/elasticsearch-$version" "$home"
  rmdir "$home.partial"
}

health() { curl -fsS --max-time 12 "$url/_cluster/health?wait_for_status=yellow&timeout=10s" 2>/dev/null; }

start() {
  [ -x "$java_home/bin/java" ] || die "no JDK at $java_home for Elasticsearch $version"
  install
  if pid_alive "$pidfile"; then
    log "Elasticsearch $version already runs at $url"
  else
    server_dir "$home"
    server_dir "$state"
    mkdir -p "$state/data" "$state/logs" "$state/tmp"
    server_dir "$state"
    log "starting Elasticsearch $version at $url (JDK $java_home)"
    # Bound to loopback with discovery.type=single-node: development mode, so
    # no bootstrap checks (vm.max_map_count and the like). The disk threshold
    # is off so that a nearly full build disk does not make indices read-only.
    as_server_user env ES_JAVA_HOME="$java_home" ES_JAVA_OPTS="-Xms512m -Xmx512m" ES_TMPDIR="$state/tmp" \
      "$home/bin/elasticsearch" -d -p "$pidfile" \
      -Ecluster.name="skills-local-es$major" -Enode.name="es$major" \
      -Ediscovery.type=single-node -Ehttp.host=127.0.0.1 -Ehttp.port="$port" \
      -Etransport.host=127.0.0.1 -Etransport.port="$((port + 100))" \
      -Epath.data="$state/data" -Epath.logs="$state/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Expack.security.enabled=false -Expack.ml.enabled=false \
      >"$state/logs/console.log" 2>&1 || { tail -n 40 "$state/logs/console.log" >&2; die "Elasticsearch $version did not start"; }
  fi
  local deadline=$((SECONDS + 180))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if health >/dev/null; then
      log "Elasticsearch $version is yellow or green at $url"
      return 0
    fi
    pid_alive "$pidfile" || break
    sleep 2
  done
  tail -n 40 "$state/logs/skills-local-es$major.log" >&2 2>/dev/null || true
  die "Elasticsearch $version did not reach yellow health at $url"
}

case "${1:-}" in
  start) start ;;
  stop) stop_pidfile "$pidfile" 60 ;;
  url) printf '%s\n' "$url" ;;
  wipe) stop_pidfile "$pidfile" 60; rm -rf "$state" ;;
  *) die "usage: $0 start|stop|url|wipe 8|9" ;;
esac
