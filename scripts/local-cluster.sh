#!/usr/bin/env bash
# The distributed deployment as plain processes on this machine, without Docker: 3 KRaft brokers, PostgreSQL,
# the projector, 2 decision-stream instances, the notifier and 2 ingress replicas, each a JVM of its own,
# started in the documented order with a readiness check for each step (docs/operating-a-cluster.md).
# Runs until Ctrl-C, which stops every process. Data and logs in a new directory under /tmp (printed).
#
#   scripts/local-cluster.sh [at_least_once|exactly_once_v2]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f fault-suite/target/fault-suite.jar ]; then
  ./mvnw -B -ntp -q package -DskipTests
fi
exec java -Dgateway.repo=. -Dloader.main=io.agentgateway.faultsuite.LocalCluster -cp fault-suite/target/fault-suite.jar \
  org.springframework.boot.loader.launch.PropertiesLauncher "${1:-at_least_once}"
