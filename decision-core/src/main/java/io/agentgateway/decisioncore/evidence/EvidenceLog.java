package io.agentgateway.decisioncore.evidence;

import io.agentgateway.evidence.CompactRange;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A workspace's Merkle log as its single writer keeps it: the compact range (tree size and at most 64 subtree
 * roots), where the last checkpoint was and since when entries wait for the next, and the versions of the last sealed
 * event (a checkpoint issued by time carries them). A few hundred bytes whatever the log holds; never the leaves.
 *
 * <p>Stored form: {@code 0x01, checkpointSize (8), pendingSinceMs (8), workspaceVersion (8), policySetVersion (8)},
 * then the compact range ({@link CompactRange#encode}).
 */
public final class EvidenceLog {
    private static final byte FORMAT = 1;
    private static final int HEADER = 1 + 8 * 4;

    private final CompactRange range;
    private long checkpointSize;
    private long pendingSinceMs;
    private long workspaceVersion;
    private long policySetVersion;

    private EvidenceLog(CompactRange range, long checkpointSize, long pendingSinceMs, long workspaceVersion,
                        long policySetVersion) {
        this.range = range;
        this.checkpointSize = checkpointSize;
        this.pendingSinceMs = pendingSinceMs;
        this.workspaceVersion = workspaceVersion;
        this.policySetVersion = policySetVersion;
    }

    public static EvidenceLog empty() {
        return new EvidenceLog(CompactRange.empty(), 0, 0, 0, 0);
    }

    public CompactRange range() {
        return range;
    }

    public long size() {
        return range.size();
    }

    /** The tree size of the last checkpoint issued. */
    public long checkpointSize() {
        return checkpointSize;
    }

    /** Whether entries were sealed that no checkpoint covers yet. */
    public boolean pending() {
        return range.size() > checkpointSize;
    }

    /** When the oldest entry no checkpoint covers was decided (epoch ms); meaningful while {@link #pending()}. */
    public long pendingSinceMs() {
        return pendingSinceMs;
    }

    public long workspaceVersion() {
        return workspaceVersion;
    }

    public long policySetVersion() {
        return policySetVersion;
    }

    void sealed(long occurredAtMs, long workspaceVersion, long policySetVersion) {
        if (!pending()) {
            pendingSinceMs = occurredAtMs;
        }
        this.workspaceVersion = workspaceVersion;
        this.policySetVersion = policySetVersion;
    }

    void checkpointed() {
        checkpointSize = range.size();
    }

    public EvidenceLog copy() {
        return new EvidenceLog(range.copy(), checkpointSize, pendingSinceMs, workspaceVersion, policySetVersion);
    }

    public byte[] encode() {
        byte[] range = this.range.encode();
        return ByteBuffer.allocate(HEADER + range.length).put(FORMAT).putLong(checkpointSize).putLong(pendingSinceMs)
                .putLong(workspaceVersion).putLong(policySetVersion).put(range).array();
    }

    /** The log {@link #encode} wrote; {@link IllegalArgumentException} for anything else. */
    public static EvidenceLog decode(byte[] bytes) {
        if (bytes.length < HEADER || bytes[0] != FORMAT) {
            throw new IllegalArgumentException("not a stored evidence log");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        in.get();
        long checkpointSize = in.getLong();
        long pendingSince = in.getLong();
        long workspaceVersion = in.getLong();
        long policySetVersion = in.getLong();
        CompactRange range = CompactRange.decode(Arrays.copyOfRange(bytes, HEADER, bytes.length));
        if (checkpointSize < 0 || checkpointSize > range.size()) {
            throw new IllegalArgumentException("a stored evidence log checkpointed beyond its size");
        }
        return new EvidenceLog(range, checkpointSize, pendingSince, workspaceVersion, policySetVersion);
    }
}
