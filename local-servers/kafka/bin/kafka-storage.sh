#!/bin/sh
# Kafka 4.4.0's bin/kafka-storage.sh runs kafka.tools.StorageTool (kafka-run-class.sh beside it).
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
