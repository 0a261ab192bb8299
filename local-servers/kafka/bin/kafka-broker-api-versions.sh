#!/bin/sh
# Kafka 4.4.0's bin/kafka-broker-api-versions.sh runs org.apache.kafka.tools.BrokerApiVersionsCommand (kafka-run-class.sh beside it).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
