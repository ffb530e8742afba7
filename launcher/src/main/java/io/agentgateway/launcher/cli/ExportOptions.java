package io.agentgateway.launcher.cli;

import io.agentgateway.ingress.export.AuditExportFilter;
import io.agentgateway.ingress.export.AuditExportFormat;
import io.agentgateway.ingress.api.AdminApiRules;
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
                     String dbPassword, boolean embeddedDatabase) {

    static final String USAGE = """
            usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar export --workspace <uuid> --from <ISO-8601> --to <ISO-8601>
                       [--format jsonl|csv] [--out <file>] [--jdbc-url <url>] [--db-user <name>] [--db-password <secret>]

            Writes the audit trail of one workspace from --from (inclusive) to --to (exclusive), oldest first,
            as JSON Lines (default) or CSV, to --out or to standard output. It reads the read models in
            PostgreSQL directly: by default the embedded gateway's database (jdbc:postgresql://127.0.0.1:25432/gateway,
            GATEWAY_POSTGRES_PORT), or SPRING_DATASOURCE_URL, SPRING_DATASOURCE_USERNAME, SPRING_DATASOURCE_PASSWORD.
            Exit status: 0 written, 1 the database or the file failed, 2 bad arguments.
            """;
    private static final Set<String> NAMES =
            Set.of("--workspace", "--from", "--to", "--format", "--out", "--jdbc-url", "--db-user", "--db-password");

    /** @throws IllegalArgumentException with a message fit for one line on stderr */
    static ExportOptions parse(List<String> args, LauncherSettings defaults) {
        OptionArguments options = OptionArguments.parse(args, NAMES, Set.of());
        UUID workspace = AdminApiRules.canonicalUuid(options.required("--workspace")).map(UUID::fromString)
                .orElseThrow(() -> new IllegalArgumentException("--workspace must be a uuid"));
        Instant from = instant(options, "--from");
        Instant to = instant(options, "--to");
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("--from must be before --to");
        }
        AuditExportFormat format = AuditExportFormat.parse(options.value("--format").orElse(AuditExportFormat.JSONL.wire()))
                .orElseThrow(() -> new IllegalArgumentException("--" + AuditExportFormat.MESSAGE));
        Path out = options.value("--out").map(Path::of).orElse(null);
        boolean embedded = options.value("--jdbc-url").isEmpty() && defaults.externalPostgres().isEmpty();
        return new ExportOptions(AuditExportFilter.range(workspace, from, to), format, out,
                options.value("--jdbc-url").orElse(defaults.jdbcUrl()),
                options.value("--db-user").orElse(defaults.postgresUser()),
                options.value("--db-password").orElse(defaults.postgresPassword()), embedded);
    }

    private static Instant instant(OptionArguments options, String name) {
        try {
            return Instant.parse(options.required(name));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 timestamp such as 2030-01-01T00:00:00Z");
        }
    }
}
