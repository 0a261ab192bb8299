#!/bin/sh
# compose's one-shot `kafka-setup`, run in the broker's network namespace so it
# reaches the loopback-only admin listener (127.0.0.1:9094, never reachable
# from another container): the change topic, one SCRAM user per service, and
# the ACLs of docs/kafka.md "Access control". Every step is idempotent.
set -eu
: "${KAFKA_COLLECTIONS_PASSWORD:?}" "${KAFKA_CATALOG_PASSWORD:?}"
# local-servers/kafka.sh runs it too, with its own admin listener and tools.
admin=${KAFKA_ADMIN_BOOTSTRAP:-127.0.0.1:9094}
bin=${KAFKA_BIN_DIR:-/opt/kafka/bin}
topic=skills.changes.v1
"$bin/kafka-topics.sh" --bootstrap-server "$admin" --create --if-not-exists --topic "$topic" --partitions 6 --replication-factor 1
for user in collections-service catalog-service; do
  if [ "$user" = collections-service ]; then password=$KAFKA_COLLECTIONS_PASSWORD; else password=$KAFKA_CATALOG_PASSWORD; fi
  "$bin/kafka-configs.sh" --bootstrap-server "$admin" --alter --entity-type users --entity-name "$user" \
    --add-config "SCRAM-SHA-512=[password=$password]"
done
acl() { "$bin/kafka-acls.sh" --bootstrap-server "$admin" --add "$@"; }
# collections-service publishes the outbox: it alone may write the topic.
acl --allow-principal User:collections-service --operation Write --operation Describe --topic "$topic"
# catalog-service reads the topic with its one consumer group, and writes nothing.
acl --allow-principal User:catalog-service --operation Read --operation Describe --topic "$topic"
acl --allow-principal User:catalog-service --operation Read --operation Describe --group catalog-indexer
echo "kafka topic, users and ACLs in place"
