package io.agentgateway.decisionstream.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * How fast the decision stream's partitions move when an instance dies or comes back (DESIGN.md,
 * "Failover in seconds"). Kafka's defaults wait 45 s for a dead member's session to expire; every
 * workspace on its partitions gets 504 meanwhile.
 *
 * @param instanceId           {@code group.instance.id} (static membership): a restarted instance with the
 *                             same id gets its tasks back without a rebalance; null: dynamic membership
 * @param sessionTimeoutMs     a member not heard from for this long is dead and its tasks move (Kafka: 45,000)
 * @param heartbeatIntervalMs  how soon a member learns that the group rebalances (a member left or came back): the
 *                             answer to its next heartbeat says so. Every handover of a task waits for it once
 * @param numStandbyReplicas   warm copies of each task's state on other instances (used where there are several):
 *                             a failed-over task restores only the changelog tail, not the whole store
 * @param transactionTimeoutMs exactly-once only: how long a transaction may stay open before its coordinator aborts
 *                             it. Longer than one failover of a broker (fenced after 6 s, its partitions and the
 *                             coordinators it held elected elsewhere): a transaction open when the broker that
 *                             coordinates it, or the group's offsets, died must survive the move, or it is aborted and
 *                             the stream thread fenced, rebuilt and rejoined (the 12–19 s exactly-once broker kills at
 *                             5,000). A dead instance's open transaction, which blocks every read_committed reader of
 *                             its outputs (the ingress's replies), is aborted sooner than this: the survivors fence it
 *                             once the group dropped the instance ({@link DepartedInstanceFencing}). Streams' default
 *                             under exactly-once: 10,000
 */
public record FailoverOptions(String instanceId, int sessionTimeoutMs, int heartbeatIntervalMs, int numStandbyReplicas,
        int transactionTimeoutMs) {

    /** The file in the state directory that keeps the instance id across restarts. */
    public static final String INSTANCE_ID_FILE = "gateway-instance-id";

    public static FailoverOptions defaults() {
        return new FailoverOptions(null, 6_000, 500, 1, 15_000);
    }

    public FailoverOptions withInstanceId(String id) {
        return new FailoverOptions(id, sessionTimeoutMs, heartbeatIntervalMs, numStandbyReplicas, transactionTimeoutMs);
    }

    /**
     * The instance id kept in {@code stateDir}: created once, read on every later start. The state
     * directory belongs to exactly one instance (Streams locks its task directories), so an id kept
     * there is unique among live instances and stable across restarts of that instance, which is what
     * static membership asks of {@code group.instance.id}.
     */
    public static String persistentInstanceId(Path stateDir, String applicationId) {
        Path file = stateDir.resolve(INSTANCE_ID_FILE);
        try {
            if (Files.exists(file)) {
                String existing = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!existing.isEmpty()) {
                    return existing;
                }
            }
            Files.createDirectories(stateDir);
            String created = applicationId + "-" + UUID.randomUUID();
            Path tmp = Files.createTempFile(stateDir, INSTANCE_ID_FILE, ".tmp");
            Files.writeString(tmp, created + System.lineSeparator(), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the decision stream's instance id in " + file, e);
        }
    }
}
