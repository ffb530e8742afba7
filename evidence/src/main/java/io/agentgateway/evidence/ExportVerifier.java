package io.agentgateway.evidence;

import java.io.InputStream;

/**
 * The offline verifier: reads an evidence export ({@link EvidenceExport}) and checks it with
 * {@link EvidenceVerifier}. {@link EvidenceExport.MalformedExportException} when the input is not an export.
 */
public final class ExportVerifier {
    private ExportVerifier() {}

    public static VerificationReport verify(InputStream export, EvidenceVerifier.Options options) {
        EvidenceExport.Reader reader = new EvidenceExport.Reader(export);
        EvidenceExport.Line first = reader.next();
        if (!(first instanceof EvidenceExport.HeaderLine header)) {
            throw new EvidenceExport.MalformedExportException("line 1: the export starts with its header");
        }
        EvidenceVerifier verifier = new EvidenceVerifier(options);
        verifier.header(header.header());
        for (EvidenceExport.Line line = reader.next(); line != null; line = reader.next()) {
            if (line instanceof EvidenceExport.KeyLine key) {
                verifier.key(key.vkey());
            } else if (line instanceof EvidenceExport.CheckpointLine checkpoint) {
                verifier.checkpoint(checkpoint.note());
            } else if (line instanceof EvidenceExport.ConsistencyLine consistency) {
                verifier.consistency(consistency.consistency());
            } else if (line instanceof EvidenceExport.EntryLine entry) {
                verifier.entry(entry.entry());
            } else if (line instanceof EvidenceExport.EndLine end) {
                verifier.end(end.entries());
            } else {
                throw new EvidenceExport.MalformedExportException("line " + reader.lineNumber() + ": a second header");
            }
        }
        return verifier.finish();
    }
}
