#!/bin/sh
# Runs a class of the Kafka distribution kafka.sh unpacked: what Kafka's own
# bin/kafka-run-class.sh does, reduced to the classpath and the JDK.
# KAFKA_LIBS (the jars' folder) and JAVA_HOME come from local-servers/kafka.sh.
set -eu
: "${KAFKA_LIBS:?set by local-servers/kafka.sh}" "${JAVA_HOME:?set by local-servers/kafka.sh}"
# No log4j configuration: its default prints errors only, to the console.
exec "$JAVA_HOME/bin/java" -Xmx256m -cp "$KAFKA_LIBS/*" "$@"
