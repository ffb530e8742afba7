package io.agentgateway.launcher.cli;

import io.agentgateway.adminapi.evidence.EvidenceExporter;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.adminapi.api.AdminApiRules;
import io.agentgateway.launcher.LauncherSettings;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The arguments of {@code export}, as {@code --name value} or {@code --name=value} ({@link OptionArguments}). The database
 * defaults to the one the embedded default serves (or SPRING_DATASOURCE_URL / _USERNAME / _PASSWORD),
 * so {@code export} next to a running gateway needs no connection options.
 *
 * @param embeddedDatabase true when no database was named, so the one a running embedded default serves is used
 */
record ExportOptions(AuditExportFilter filter, AuditExportFormat format, Path out, String jdbcUrl, String dbUser,
                     String dbPassword, boolean embeddedDatabase, EvidenceExporter.Request evidence) {

    static final String USAGE = """
            usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar export --workspace <uuid> --from <ISO-8601> --to <ISO-8601>
                       [--format jsonl|csv] [--out <file>] [--jdbc-url <url>] [--db-user <name>] [--db-password <secret>]
                   java -jar launcher-0.1.0-SNAPSHOT-exec.jar export --evidence --workspace <uuid>
                       [--from <ISO-8601> --to <ISO-8601>] [--consistency-from <tree size>] [--out <file>] [...]

            Writes the audit trail of one workspace from --from (inclusive) to --to (exclusive), oldest first,
            as JSON Lines (default) or CSV, to --out or to standard output. It reads the read models in
            PostgreSQL directly: by default the embedded gateway's database (jdbc:postgresql://127.0.0.1:25432/gateway,
            GATEWAY_POSTGRES_PORT), or SPRING_DATASOURCE_URL, SPRING_DATASOURCE_USERNAME, SPRING_DATASOURCE_PASSWORD.
            With --evidence it writes the evidence export instead (docs/evidence.md): the workspace's Merkle log up to
            its latest checkpoint (every entry without --from/--to; those of the time range with their inclusion
            proofs with them), its checkpoints and public keys, and with --consistency-from a consistency proof from
            that tree size (an auditor's earlier checkpoint). Check it with audit-verify.
            Exit status: 0 written, 1 the database or the file failed, 2 bad arguments.
            """;
    private static final Set<String> NAMES = Set.of("--workspace", "--from", "--to", "--format", "--out", "--jdbc-url",
            "--db-user", "--db-password", "--consistency-from");
    private static final Set<String> FLAGS = Set.of("--evidence");

    /** @throws IllegalArgumentException with a message fit for one line on stderr */
    static ExportOptions parse(List<String> args, LauncherSettings defaults) {
        OptionArguments options = OptionArguments.parse(args, NAMES, FLAGS);
        UUID workspace = AdminApiRules.canonicalUuid(options.required("--workspace")).map(UUID::fromString)
                .orElseThrow(() -> new IllegalArgumentException("--workspace must be a uuid"));
        boolean embedded = options.value("--jdbc-url").isEmpty() && defaults.externalPostgres().isEmpty();
        if (options.flag("--evidence")) {
            return evidence(options, workspace, defaults, embedded);
        }
        if (options.value("--consistency-from").isPresent()) {
            throw new IllegalArgumentException("--consistency-from goes with --evidence");
        }
        Instant from = instant(options, "--from");
        Instant to = instant(options, "--to");
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("--from must be before --to");
        }
        AuditExportFormat format = AuditExportFormat.parse(options.value("--format").orElse(AuditExportFormat.JSONL.wire()))
                .orElseThrow(() -> new IllegalArgumentException("--" + AuditExportFormat.MESSAGE));
        Path out = options.value("--out").map(Path::of).orElse(null);
        return new ExportOptions(AuditExportFilter.range(workspace, from, to), format, out,
                options.value("--jdbc-url").orElse(defaults.jdbcUrl()),
                options.value("--db-user").orElse(defaults.postgresUser()),
                options.value("--db-password").orElse(defaults.postgresPassword()), embedded, null);
    }

    /** {@code export --evidence}: the whole log, or a time range of it with proofs. */
    private static ExportOptions evidence(OptionArguments options, UUID workspace, LauncherSettings defaults, boolean embedded) {
        if (options.value("--format").isPresent()) {
            throw new IllegalArgumentException("--evidence is JSON Lines of its own: no --format");
        }
        if (options.value("--from").isPresent() != options.value("--to").isPresent()) {
            throw new IllegalArgumentException("--from and --to go together (neither: the whole log)");
        }
        Instant from = options.value("--from").isPresent() ? instant(options, "--from") : null;
        Instant to = options.value("--to").isPresent() ? instant(options, "--to") : null;
        if (from != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("--from must be before --to");
        }
        Long consistencyFrom = null;
        if (options.value("--consistency-from").isPresent()) {
            try {
                consistencyFrom = Long.parseLong(options.value("--consistency-from").get());
            } catch (NumberFormatException e) {
                consistencyFrom = -1L;
            }
            if (consistencyFrom < 0) {
                throw new IllegalArgumentException("--consistency-from must be a tree size (a whole number of at least 0)");
            }
        }
        return new ExportOptions(null, null, options.value("--out").map(Path::of).orElse(null),
                options.value("--jdbc-url").orElse(defaults.jdbcUrl()),
                options.value("--db-user").orElse(defaults.postgresUser()),
                options.value("--db-password").orElse(defaults.postgresPassword()), embedded,
                new EvidenceExporter.Request(workspace, from, to, consistencyFrom));
    }

    UUID workspaceId() {
        return evidence != null ? evidence.workspaceId() : filter.workspaceId();
    }

    private static Instant instant(OptionArguments options, String name) {
        try {
            return Instant.parse(options.required(name));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 timestamp such as 2030-01-01T00:00:00Z");
        }
    }
}
