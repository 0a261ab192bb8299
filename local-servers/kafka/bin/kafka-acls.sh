#!/bin/sh
# Kafka 4.4.0's bin/kafka-acls.sh runs org.apache.kafka.tools.AclCommand (kafka-run-class.sh beside it).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.AclCommand "$@"
