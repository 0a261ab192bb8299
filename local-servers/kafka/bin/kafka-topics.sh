#!/bin/sh
# Kafka 4.4.0's bin/kafka-topics.sh runs org.apache.kafka.tools.TopicCommand (kafka-run-class.sh beside it).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.TopicCommand "$@"
