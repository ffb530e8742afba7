package io.agentgateway.evidence;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a verification found: what was checked, and every failure, the first bad sequence number among them.
 *
 * @param workspaceId       the workspace whose log was checked
 * @param origin            the log's origin (the checkpoints' first line)
 * @param entriesChecked    entries whose leaf was recomputed
 * @param firstSequence     the lowest sequence checked, or -1
 * @param lastSequence      the highest sequence checked, or -1
 * @param complete          whether every entry from 0 to the checkpoint's size was there (the root recomputed)
 * @param treeSize          the head checkpoint's size (-1: none)
 * @param rootHash          the head checkpoint's root, base64 (null: none)
 * @param computedRoot      the root of the entries checked, base64, when complete (null otherwise)
 * @param signature         who signed the head checkpoint, or why it is not trusted
 * @param keysPinned        whether the trusted keys came from the verifier's caller (not from the export itself)
 * @param checkpoints       checkpoints seen and checked
 * @param consistency       what was found about the previously seen checkpoint, or null when none was given
 * @param payloadsChecked   stored payload excerpts checked against their sealed digests
 * @param payloadsErased    payloads found erased (digest only)
 * @param proofsChecked     inclusion proofs verified
 * @param pendingEntries    entries sealed after the head checkpoint (not covered by a signed root yet)
 * @param failures          every failure, in the order found
 */
public record VerificationReport(String workspaceId, String origin, long entriesChecked, long firstSequence,
                                 long lastSequence, boolean complete, long treeSize, String rootHash, String computedRoot,
                                 String signature, boolean keysPinned, int checkpoints, String consistency,
                                 long payloadsChecked, long payloadsErased, long proofsChecked, long pendingEntries,
                                 List<Failure> failures) {

    public VerificationReport {
        failures = List.copyOf(failures);
    }

    /** One thing that does not hold; {@code sequence} is the first entry it concerns, or null for the log as a whole. */
    public record Failure(Long sequence, String message) {}

    public boolean ok() {
        return failures.isEmpty();
    }

    /** The lowest sequence number any failure names. */
    public OptionalLong firstBadSequence() {
        return failures.stream().filter(f -> f.sequence() != null).mapToLong(Failure::sequence).min();
    }

    /** The report as the command-line tools print it, one fact a line. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("workspace: ").append(workspaceId).append('\n');
        out.append("origin: ").append(origin).append('\n');
        out.append("entries checked: ").append(entriesChecked);
        if (entriesChecked > 0) {
            out.append(" (sequence ").append(firstSequence).append(" to ").append(lastSequence)
                    .append(complete ? ", every entry of the checkpoint" : ", a part of the log, each with its inclusion proof")
                    .append(')');
        }
        out.append('\n');
        if (treeSize >= 0) {
            out.append("checkpoint: tree size ").append(treeSize).append(", root ").append(rootHash).append('\n');
        } else {
            out.append("checkpoint: none\n");
        }
        if (computedRoot != null) {
            out.append("root of the entries: ").append(computedRoot)
                    .append(computedRoot.equals(rootHash) ? " (matches the checkpoint)" : " (DOES NOT match the checkpoint)").append('\n');
        }
        out.append("signature: ").append(signature).append(keysPinned ? "" : " (keys taken from the export itself: pin them with --key)").append('\n');
        out.append("checkpoints checked: ").append(checkpoints).append('\n');
        if (consistency != null) {
            out.append("previous checkpoint: ").append(consistency).append('\n');
        }
        out.append("payloads: ").append(payloadsChecked).append(" checked against their digests, ").append(payloadsErased)
                .append(" erased (digest only)\n");
        if (proofsChecked > 0) {
            out.append("inclusion proofs verified: ").append(proofsChecked).append('\n');
        }
        if (pendingEntries > 0) {
            out.append("entries after the checkpoint (not covered yet): ").append(pendingEntries).append('\n');
        }
        OptionalLong first = firstBadSequence();
        if (first.isPresent()) {
            out.append("first bad sequence: ").append(first.getAsLong()).append('\n');
        }
        int shown = 0;
        for (Failure failure : failures) {
            if (shown++ == 20) {
                out.append("  … ").append(failures.size() - 20).append(" more\n");
                break;
            }
            out.append("  FAILED").append(failure.sequence() == null ? "" : " at sequence " + failure.sequence()).append(": ")
                    .append(failure.message()).append('\n');
        }
        out.append("result: ").append(ok() ? "OK" : "FAILED").append('\n');
        return out.toString();
    }
}
