package io.agentgateway.launcher.cli;

import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.adminapi.evidence.EvidenceExporter;
import io.agentgateway.adminapi.export.AuditExport;
import io.agentgateway.launcher.LauncherSettings;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import tools.jackson.core.JacksonException;

/**
 * {@code java -jar launcher-*-exec.jar export ...}: the audit trail of a workspace and time range as
 * JSON Lines or CSV, read from PostgreSQL through the same export code as the admin API's
 * {@code GET .../audit-log/export}. Failures are one line on stderr and a non-zero exit status, never
 * a stack trace; a file is written under a temporary name and renamed only when complete, so a failed
 * export never leaves a truncated file that looks whole.
 */
public final class ExportCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private final OutputStream stdout;
    private final PrintStream stderr;

    ExportCommand(OutputStream stdout, PrintStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** @param args the arguments after {@code export}; returns the process exit status */
    public static int run(List<String> args) {
        OutputStream stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
        try {
            return new ExportCommand(stdout, System.err).execute(args);
        } catch (RuntimeException e) {
            // whatever slipped through is still one line, not a stack trace
            System.err.println("export: " + oneLine(String.valueOf(e)));
            return FAILED;
        }
    }

    int execute(List<String> args) {
        if (OptionArguments.asksForHelp(args)) {
            try {
                stdout.write(ExportOptions.USAGE.getBytes(StandardCharsets.UTF_8));
                stdout.flush();
            } catch (IOException e) {
                return FAILED;
            }
            return OK;
        }
        ExportOptions options;
        try {
            options = ExportOptions.parse(args, LauncherSettings.fromEnvironment());
        } catch (IllegalArgumentException e) {
            stderr.println("export: " + e.getMessage() + " (see export --help)");
            return USAGE;
        }
        Connection connection;
        try {
            connection = connect(options);
        } catch (SQLException e) {
            stderr.println("export: PostgreSQL at " + options.jdbcUrl() + ": " + oneLine(e.getMessage())
                    + (options.embeddedDatabase() ? " (is the gateway running? or name a database with --jdbc-url)" : ""));
            return FAILED;
        }
        try (connection) {
            if (!workspaceExists(connection, options)) {
                stderr.println("export: workspace " + options.workspaceId() + " does not exist in " + options.jdbcUrl());
                return FAILED;
            }
            long rows = options.out() == null ? toStdout(connection, options) : toFile(connection, options);
            stderr.println("export: " + rows + (options.evidence() != null ? " log entries" : " audit rows") + " written"
                    + (options.out() == null ? "" : " to " + options.out()));
            return OK;
        } catch (IllegalArgumentException e) {
            // --consistency-from beyond the latest checkpoint, found once the log was read
            stderr.println("export: " + e.getMessage());
            return FAILED;
        } catch (SQLException e) {
            stderr.println("export: PostgreSQL at " + options.jdbcUrl() + ": " + oneLine(e.getMessage()));
            return FAILED;
        } catch (IOException | UncheckedIOException | JacksonException e) {
            stderr.println("export: cannot write " + (options.out() == null ? "to standard output" : options.out()) + ": " + describe(e));
            return FAILED;
        }
    }

    private static Connection connect(ExportOptions options) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", options.dbUser());
        properties.setProperty("password", options.dbPassword());
        // fail within seconds when nothing listens, rather than after the driver's default
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(options.jdbcUrl(), properties);
    }

    /** An unknown (or mistyped) workspace is an error, not an empty file that looks like a quiet period. */
    private static boolean workspaceExists(Connection connection, ExportOptions options) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("select 1 from workspaces where id = ?")) {
            s.setObject(1, options.workspaceId());
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private long toStdout(Connection connection, ExportOptions options) throws SQLException, IOException {
        long rows = write(connection, options, stdout);
        stdout.flush();
        return rows;
    }

    /** The audit export, or with --evidence the evidence export (keys: those this launcher knows, EvidenceKeys). */
    private static long write(Connection connection, ExportOptions options, OutputStream out) throws SQLException, IOException {
        if (options.evidence() == null) {
            return AuditExport.write(connection, options.filter(), options.format(), out);
        }
        List<NoteKeys.VerifierKey> keys = EvidenceKeys.ofThisGateway(LauncherSettings.fromEnvironment());
        return EvidenceExporter.write(connection, options.evidence(), keys, EvidenceKeys.origin(keys, options.workspaceId()),
                out).entries();
    }

    private static long toFile(Connection connection, ExportOptions options) throws SQLException, IOException {
        Path target = options.out().toAbsolutePath();
        Path partial = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            long rows;
            try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(partial), 64 * 1024)) {
                rows = write(connection, options, file);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return rows;
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static String describe(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return oneLine(e.getMessage());
    }

    private static String oneLine(String message) {
        return message == null ? "(no detail)" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
