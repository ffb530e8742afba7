package io.agentgateway.schemas.event;

import java.util.List;

/**
 * How the decision stream sealed an event into its workspace's Merkle log (module {@code evidence}): the entry's
 * sequence number and leaf hash, and what a reader needs to store the tree without recomputing it. Set on the
 * envelope of every event that is a log entry; null on the others and in records from before the log.
 *
 * @param sequence              the entry's position in the workspace's log, from 0
 * @param leafHash              base64 {@code SHA-256(0x00 || entry)}
 * @param nodes                 base64 hashes of the complete subtrees this leaf completed, lowest level (1) first:
 *                              level {@code l}, index {@code ((sequence + 1) >> l) - 1}; empty for most leaves
 * @param payloadSha256         an evaluation's: lower-case hex SHA-256 of its whole payload as compact JSON
 * @param payloadExcerptSha256  an evaluation's: lower-case hex SHA-256 of its stored excerpt; null without one
 * @param entry                 base64 of the encoded entry, for kinds that have no audit row to recompute it from
 *                              (reviews, executions, policy changes, erasures); null for audit rows
 */
public record EvidenceSeal(
        long sequence,
        String leafHash,
        List<String> nodes,
        String payloadSha256,
        String payloadExcerptSha256,
        String entry) {

    public EvidenceSeal {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
