package io.agentgateway.launcher.cli;

import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.VerificationReport;
import io.agentgateway.adminapi.api.AdminApiRules;
import io.agentgateway.adminapi.evidence.LiveVerification;
import io.agentgateway.launcher.LauncherSettings;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * {@code java -jar launcher-*-exec.jar verify --workspace <uuid> [--key <vkey>,...] [--previous-checkpoint <file>]
 * [--jdbc-url ..]}: the live check of a workspace's audit log against its Merkle log, on the rows PostgreSQL holds
 * (the admin API's {@code POST .../evidence/verify}, the same code). The keys default to this gateway's (its settings,
 * else the embedded default's generated key). Exit status: 0 verified, 1 not verified or the database failed,
 * 2 bad arguments.
 */
public final class VerifyCommand {
    static final String USAGE = """
            usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar verify --workspace <uuid> [--key <vkey>[,<vkey>...]]
                       [--previous-checkpoint <file>] [--jdbc-url <url>] [--db-user <name>] [--db-password <secret>]

            Recomputes every audit row's entry of the workspace from its columns in PostgreSQL and checks it against
            the leaves the decision stream sealed and every signed checkpoint, the stored payloads against their
            digests, and with --previous-checkpoint consistency with a checkpoint seen before. Prints the entries
            checked, the root, the signature and, on failure, the first bad sequence number. The database defaults to
            the embedded gateway's (as export); the keys to this gateway's. Exit status: 0 verified, 1 not verified or
            the database failed, 2 bad arguments.
            """;
    private static final Set<String> NAMES = Set.of("--workspace", "--key", "--previous-checkpoint", "--jdbc-url",
            "--db-user", "--db-password");

    private final PrintStream stdout;
    private final PrintStream stderr;

    public VerifyCommand(PrintStream stdout, PrintStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static int run(List<String> args) {
        try {
            return new VerifyCommand(System.out, System.err).execute(args, LauncherSettings.fromEnvironment());
        } catch (RuntimeException e) {
            System.err.println("verify: " + e);
            return 1;
        }
    }

    public int execute(List<String> args, LauncherSettings defaults) {
        if (OptionArguments.asksForHelp(args)) {
            stdout.print(USAGE);
            return 0;
        }
        UUID workspace;
        List<NoteKeys.VerifierKey> keys;
        String previous;
        String jdbcUrl;
        Properties credentials = new Properties();
        try {
            OptionArguments options = OptionArguments.parse(args, NAMES, Set.of());
            workspace = AdminApiRules.canonicalUuid(options.required("--workspace")).map(UUID::fromString)
                    .orElseThrow(() -> new IllegalArgumentException("--workspace must be a uuid"));
            keys = options.value("--key").map(k -> EvidenceKeys.parse(k, "--key")).orElseGet(() -> EvidenceKeys.ofThisGateway(defaults));
            previous = options.value("--previous-checkpoint").map(AuditVerifyCommand::readNote).orElse(null);
            jdbcUrl = options.value("--jdbc-url").orElse(defaults.jdbcUrl());
            credentials.setProperty("user", options.value("--db-user").orElse(defaults.postgresUser()));
            credentials.setProperty("password", options.value("--db-password").orElse(defaults.postgresPassword()));
            credentials.setProperty("connectTimeout", "5");
        } catch (IllegalArgumentException e) {
            stderr.println("verify: " + e.getMessage() + " (see verify --help)");
            return 2;
        }
        try (Connection connection = DriverManager.getConnection(jdbcUrl, credentials)) {
            VerificationReport report = LiveVerification.verify(connection, workspace, keys, previous,
                    EvidenceKeys.origin(keys, workspace));
            stdout.print(report.render());
            stdout.flush();
            return report.ok() ? 0 : 1;
        } catch (SQLException e) {
            stderr.println("verify: PostgreSQL at " + jdbcUrl + ": " + String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " "));
            return 1;
        }
    }
}
