package io.agentgateway.backtest;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition a workspace's records are on: what the producer's built-in partitioner (and Kafka
 * Streams' default for a sink without a partitioner) computes for a keyed record, a positive murmur2 of
 * the serialized key modulo the partition count. The key is the workspace id as UTF-8 (StringSerializer).
 */
final class WorkspacePartition {
    private WorkspacePartition() {}

    static int of(String workspaceId, int partitionCount) {
        return Utils.toPositive(Utils.murmur2(workspaceId.getBytes(StandardCharsets.UTF_8))) % partitionCount;
    }
}
