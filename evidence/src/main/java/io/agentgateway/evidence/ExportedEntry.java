package io.agentgateway.evidence;

import java.util.List;

/**
 * One entry line of an evidence export: the entry's fields as the read model holds them (for an audit row, its
 * columns as sealed), the leaf hash the log sealed it with, the stored payload excerpt (audit rows; null when there is
 * none or it was erased) and, in a partial export, its inclusion proof against the export's checkpoint.
 *
 * @param sealedLeafHash what the read model recorded as the entry's leaf; not trusted, it only says which entry
 *                       differs when a root does not match
 * @param proof          the inclusion proof against the export's checkpoint, or null (a complete export needs none:
 *                       its verifier recomputes the root)
 */
public record ExportedEntry(Entry entry, byte[] sealedLeafHash, String payloadExcerpt, boolean payloadErased,
                            List<byte[]> proof) {
}
