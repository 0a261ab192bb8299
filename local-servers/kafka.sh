#!/usr/bin/env bash
# A real Apache Kafka broker on loopback, KRaft mode (one process is broker and
# controller), from the jars Maven Central serves (local-servers/kafka/pom.xml),
# set up as docker-compose.yml's `kafka` service is: TLS + SCRAM-SHA-512, ACLs
# enforced, no topic auto-created, 6 partitions.
#
#   local-servers/kafka.sh start   fetch if needed, format, start, set up, wait
#   local-servers/kafka.sh env     prints the clients' settings as `export` lines
#   local-servers/kafka.sh stop
#   local-servers/kafka.sh wipe    stops and removes data, certificates, passwords
#
# Listeners, all on 127.0.0.1:
#   KAFKA_PORT (19092)        PLAINTEXT, anonymous = super user: the live test suites
#   KAFKA_SASL_PORT (19093)   SASL_SSL + SCRAM-SHA-512: what deploy/ configures
#   +2 controller, +3 admin   PLAINTEXT, the broker's own and deploy/docker/kafka/setup.sh's
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/common.sh"
repo="$(cd "$here/.." && pwd)"

KAFKA_VERSION=4.4.0 # local-servers/kafka/pom.xml names it too
plain_port="${KAFKA_PORT:-$((19092 + LOCAL_SERVERS_PORT_OFFSET))}"
sasl_port="${KAFKA_SASL_PORT:-$((19093 + LOCAL_SERVERS_PORT_OFFSET))}"
controller_port=$((plain_port + 2))
admin_port=$((plain_port + 3))
home="$LOCAL_SERVERS_DIR/kafka-$KAFKA_VERSION" # libs/: the jars of the classpath
state="$(state_dir kafka)"
pidfile="$state/run/kafka.pid"
secrets="$state/secrets" # broker keystore and its password: the server user's only
ca_dir="$state/ca"       # the CA certificate, for clients
client_dir="$state/client" # the SCRAM users' passwords: the caller's only
# docker-compose.yml's cluster id (KRaft wants a fixed one: 16 bytes, base64url).
CLUSTER_ID=MkU3OEVBNTcwNTJENDM2Qk

# The tools' shims (kafka-topics.sh & co.) find the jars and JDK here.
export KAFKA_LIBS="$home/libs" JAVA_HOME="$JDK17"
tools="$here/kafka/bin"

install() {
  [ -f "$home/libs/.complete" ] && return 0
  local cp_file
  cp_file="$(mktemp)"
  log "resolving Kafka $KAFKA_VERSION's classpath with Maven"
  (cd "$here/kafka" && mvn -q -B dependency:build-classpath -Dmdep.outputFile="$cp_file" >&2) ||
    die "Maven could not resolve local-servers/kafka/pom.xml"
  # Copied out of ~/.m2: the broker runs as a user who cannot read root's home.
  rm -rf "$home.partial"
  mkdir -p "$home.partial/libs"
  tr ':' '\n' <"$cp_file" | xargs -r cp -t "$home.partial/libs"
  rm -f "$cp_file"
  touch "$home.partial/libs/.complete"
  rm -rf "$home"
  mv "$home.partial" "$home"
}

# Generated once, kept under the state folder; never printed but by `env`.
password_file() { printf '%s/%s.password' "$client_dir" "$1"; }
make_passwords() {
  mkdir -p "$client_dir"
  chmod 700 "$client_dir"
  local user file
  for user in collections-service catalog-service; do
    file="$(password_file "$user")"
    [ -s "$file" ] || (umask 077 && head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$file")
  done
}

# deploy/docker/kafka/certificates.sh, as compose runs it, with our folders;
# 127.0.0.1 in the certificate because clients dial the listener by address.
make_certificates() {
  server_dir "$secrets"
  mkdir -p "$ca_dir"
  local owner
  owner="$(id -u)"
  [ "$owner" = 0 ] && owner="$LOCAL_SERVERS_USER"
  PATH="$JDK17/bin:$PATH" KAFKA_SECRETS_DIR="$secrets" KAFKA_CA_DIR="$ca_dir" KAFKA_FILES_OWNER="$owner" \
    KAFKA_CERT_SAN="dns:kafka,dns:localhost,ip:127.0.0.1" sh "$repo/deploy/docker/kafka/certificates.sh" >&2
  chmod 700 "$secrets"
}

# server.properties: docker-compose.yml's `kafka` environment, one key each.
write_config() {
  local config="$state/config" keystore_password
  keystore_password="$(cat "$secrets/broker-credentials")"
  mkdir -p "$config"
  cp "$here/kafka/log4j2.xml" "$config/log4j2.xml"
  (umask 077 && cat >"$config/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$plain_port,CLIENT://127.0.0.1:$sasl_port,CONTROLLER://127.0.0.1:$controller_port,ADMIN://127.0.0.1:$admin_port
advertised.listeners=PLAINTEXT://127.0.0.1:$plain_port,CLIENT://127.0.0.1:$sasl_port,ADMIN://127.0.0.1:$admin_port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CLIENT:SASL_SSL,CONTROLLER:PLAINTEXT,ADMIN:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=ADMIN
sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
ssl.keystore.location=$secrets/broker.p12
ssl.keystore.type=PKCS12
ssl.keystore.password=$keystore_password
ssl.key.password=$keystore_password
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:ANONYMOUS
auto.create.topics.enable=false
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
num.partitions=6
log.dirs=$state/data
EOF
  )
  server_dir "$state/config"
}

answers() { "$tools/kafka-broker-api-versions.sh" --bootstrap-server "127.0.0.1:$admin_port" >/dev/null 2>&1; }

# deploy/docker/kafka/setup.sh (topic, SCRAM users, ACLs) through the admin
# listener; again whenever setup.sh changed since it last ran here.
run_setup() {
  local mark="$state/setup.sha256" sum
  sum="$(sha256sum "$repo/deploy/docker/kafka/setup.sh" | cut -d' ' -f1)"
  [ -f "$mark" ] && [ "$(cat "$mark")" = "$sum" ] && return 0
  log "creating the topic, the SCRAM users and the ACLs (deploy/docker/kafka/setup.sh)"
  KAFKA_ADMIN_BOOTSTRAP="127.0.0.1:$admin_port" KAFKA_BIN_DIR="$tools" \
    KAFKA_COLLECTIONS_PASSWORD="$(cat "$(password_file collections-service)")" \
    KAFKA_CATALOG_PASSWORD="$(cat "$(password_file catalog-service)")" \
    sh "$repo/deploy/docker/kafka/setup.sh" >&2 || die "setup.sh failed"
  printf '%s' "$sum" >"$mark"
}

start() {
  local began=$SECONDS
  [ -x "$JDK17/bin/java" ] || die "no JDK at $JDK17 for Kafka $KAFKA_VERSION"
  install
  if pid_alive "$pidfile"; then
    log "Kafka $KAFKA_VERSION already runs (pid $(cat "$pidfile"))"
  else
    # The state folder itself stays the caller's: client/ holds the passwords.
    mkdir -p "$state"
    server_dir "$state/run"
    make_passwords
    make_certificates
    write_config
    mkdir -p "$state/logs"
    server_dir "$state/logs"
    if [ ! -f "$state/data/meta.properties" ]; then
      server_dir "$state/data"
      log "formatting the KRaft storage"
      # What kafka-storage.sh runs, spelled out: the server user runs nothing
      # from the checkout, which it may not enter (a mktemp -d clone, /root).
      as_server_user "$JDK17/bin/java" -Xmx256m -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool \
        format -t "$CLUSTER_ID" -c "$state/config/server.properties" >&2 ||
        die "formatting the KRaft storage failed"
    fi
    log "starting Kafka $KAFKA_VERSION: PLAINTEXT 127.0.0.1:$plain_port, SASL_SSL 127.0.0.1:$sasl_port (JDK $JDK17)"
    # setsid: the broker outlives this script and the shell that ran it.
    as_server_user setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$pidfile" \
      "$JDK17/bin/java" -Xms512m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true \
      -Dkafka.log.dir="$state/logs" -Dlog4j2.configurationFile="$state/config/log4j2.xml" \
      -cp "$KAFKA_LIBS/*" kafka.Kafka "$state/config/server.properties" \
      </dev/null >"$state/logs/console.log" 2>&1 &
  fi
  local deadline=$((SECONDS + 120))
  until answers; do
    if [ "$SECONDS" -ge "$deadline" ] || { sleep 1; ! pid_alive "$pidfile"; }; then
      tail -n 40 "$state/logs/server.log" "$state/logs/console.log" >&2 2>/dev/null || true
      die "Kafka $KAFKA_VERSION did not answer on 127.0.0.1:$admin_port"
    fi
  done
  run_setup
  log "Kafka $KAFKA_VERSION ready in $((SECONDS - began)) s; \`$0 env\` prints the clients' settings"
}

print_env() {
  [ -s "$(password_file collections-service)" ] || die "no Kafka state yet: run $0 start"
  printf 'export KAFKA_BROKERS=127.0.0.1:%s\n' "$plain_port"
  printf 'export KAFKA_SASL_BROKERS=127.0.0.1:%s\n' "$sasl_port"
  printf 'export KAFKA_CA_FILE=%s\n' "$ca_dir/ca.crt"
  printf 'export KAFKA_COLLECTIONS_PASSWORD=%s\n' "$(cat "$(password_file collections-service)")"
  printf 'export KAFKA_CATALOG_PASSWORD=%s\n' "$(cat "$(password_file catalog-service)")"
}

case "${1:-}" in
  start) start ;;
  env) print_env ;;
  stop) stop_pidfile "$pidfile" 60 ;;
  wipe) stop_pidfile "$pidfile" 60; rm -rf "$state" ;;
  *) die "usage: $0 start|env|stop|wipe" ;;
esac
