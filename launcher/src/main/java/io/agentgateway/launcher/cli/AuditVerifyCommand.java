package io.agentgateway.launcher.cli;

import io.agentgateway.evidence.EvidenceExport;
import io.agentgateway.evidence.EvidenceVerifier;
import io.agentgateway.evidence.ExportVerifier;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.VerificationReport;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code java -jar launcher-*-exec.jar audit-verify --file <export.jsonl> [--key <vkey>,...] [--previous-checkpoint
 * <file>] [--allow-unsigned]}: the offline verifier (module {@code evidence}, docs/evidence.md) over an evidence
 * export. It needs no gateway, broker or database. Prints what it checked (entries, root, signature, consistency with a
 * checkpoint seen before) and, on failure, the first bad sequence number. Exit status: 0 verified, 1 not verified,
 * 2 bad arguments or a file that is not an evidence export.
 */
public final class AuditVerifyCommand {
    static final int VERIFIED = 0;
    static final int NOT_VERIFIED = 1;
    static final int USAGE_ERROR = 2;

    static final String USAGE = """
            usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar audit-verify --file <evidence export, or - for stdin>
                       [--key <vkey>[,<vkey>...]] [--previous-checkpoint <file>] [--allow-unsigned]

            Checks an evidence export (export --evidence, or GET .../evidence/export) offline: every entry's leaf from
            its fields, the stored payloads against their digests, the root against the signed checkpoint (or each
            entry's inclusion proof), every checkpoint's signature, and consistency with --previous-checkpoint (a
            checkpoint you saw before: a note file). --key pins the public keys the checkpoints must be signed by
            (<name>+<key id>+<base64>, as GET .../evidence/public-keys lists them); without it the export's own keys are
            used and the report says they were not pinned. --allow-unsigned accepts checkpoints of a gateway without a
            signing key. Exit status: 0 verified, 1 not verified (the first bad sequence is printed), 2 bad arguments
            or not an evidence export.
            """;
    private static final Set<String> NAMES = Set.of("--file", "--key", "--previous-checkpoint");
    private static final Set<String> FLAGS = Set.of("--allow-unsigned");

    private final InputStream stdin;
    private final PrintStream stdout;
    private final PrintStream stderr;

    public AuditVerifyCommand(InputStream stdin, PrintStream stdout, PrintStream stderr) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static int run(List<String> args) {
        try {
            return new AuditVerifyCommand(System.in, System.out, System.err).execute(args);
        } catch (RuntimeException e) {
            System.err.println("audit-verify: " + e);
            return USAGE_ERROR;
        }
    }

    public int execute(List<String> args) {
        if (OptionArguments.asksForHelp(args)) {
            stdout.print(USAGE);
            return VERIFIED;
        }
        EvidenceVerifier.Options options;
        String file;
        try {
            OptionArguments parsed = OptionArguments.parse(args, NAMES, FLAGS);
            file = parsed.required("--file");
            List<NoteKeys.VerifierKey> keys = parsed.value("--key").map(k -> EvidenceKeys.parse(k, "--key")).orElse(List.of());
            String previous = parsed.value("--previous-checkpoint").map(AuditVerifyCommand::readNote).orElse(null);
            options = new EvidenceVerifier.Options(keys, previous, parsed.flag("--allow-unsigned"));
        } catch (IllegalArgumentException e) {
            stderr.println("audit-verify: " + e.getMessage() + " (see audit-verify --help)");
            return USAGE_ERROR;
        }
        VerificationReport report;
        try (InputStream in = "-".equals(file) ? stdin : new BufferedInputStream(Files.newInputStream(Path.of(file)), 1 << 16)) {
            report = ExportVerifier.verify(in, options);
        } catch (IOException e) {
            stderr.println("audit-verify: cannot read " + file + ": " + e.getClass().getSimpleName());
            return USAGE_ERROR;
        } catch (EvidenceExport.MalformedExportException e) {
            stderr.println("audit-verify: " + file + " is not an evidence export: " + e.getMessage());
            return USAGE_ERROR;
        }
        stdout.print(report.render());
        stdout.flush();
        return report.ok() ? VERIFIED : NOT_VERIFIED;
    }

    /** A checkpoint note from a file (its text is checked by the verifier). */
    static String readNote(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--previous-checkpoint: cannot read " + path);
        }
    }
}
