package io.agentgateway.schemas.event;

/**
 * A signed checkpoint of the workspace's Merkle log (C2SP {@code tlog-checkpoint}: origin, tree size, root hash),
 * issued by the decision stream every N entries or T seconds. A record of the log like any other, so that the
 * read-model rebuild reproduces it; it is not itself an entry of the tree.
 *
 * @param origin    the log's origin line
 * @param treeSize  the number of entries the root covers
 * @param rootHash  base64 RFC 9162 root of entries {@code [0, treeSize)}
 * @param note      the whole signed note (the checkpoint text and its signature lines), or the text alone when the
 *                  gateway has no signing key
 * @param signedBy  the signing key's verifier key ({@code name+id+key}), or null when unsigned
 */
public record CheckpointIssued(String origin, long treeSize, String rootHash, String note, String signedBy)
        implements DomainEvent {}
