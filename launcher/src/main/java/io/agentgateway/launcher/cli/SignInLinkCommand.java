package io.agentgateway.launcher.cli;

import io.agentgateway.console.SignInLinks;
import io.agentgateway.launcher.LauncherSettings;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@code signin-link}: a new one-time console sign-in link for a user of a running gateway without an identity provider
 * (the embedded default prints one for its demo owner at start; this is the next one, e.g. to confirm it is you before
 * the kill switch). It writes the link's hash into the gateway's database, as the console does. Exit 0 printed, 1 the
 * database failed, 2 bad arguments.
 */
public final class SignInLinkCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;
    static final String USAGE = """
            usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar signin-link [--user <user id>] [--email <address>]
                       [--url <the gateway's address>] [--ttl PT15M] [--jdbc-url <url>] [--db-user <name>] [--db-password <secret>]

            Prints a one-time console sign-in link for --user (default demo-owner, the embedded default's demo owner),
            valid for --ttl. The link is written to the gateway's database: by default the embedded gateway's
            (jdbc:postgresql://127.0.0.1:25432/gateway, GATEWAY_POSTGRES_PORT), or SPRING_DATASOURCE_URL / _USERNAME /
            _PASSWORD. --url defaults to http://127.0.0.1:<SERVER_PORT, 8080>.
            Exit status: 0 printed, 1 the database failed, 2 bad arguments.
            """;
    private static final Set<String> NAMES = Set.of("--user", "--email", "--url", "--ttl", "--jdbc-url", "--db-user",
            "--db-password");

    private SignInLinkCommand() {}

    public static int run(List<String> args) {
        return run(args, LauncherSettings.fromEnvironment(), System.out, System.err);
    }

    /** As {@link #run(List)}, with the defaults and streams given (tests). */
    public static int run(List<String> args, LauncherSettings defaults, PrintStream stdout, PrintStream stderr) {
        if (OptionArguments.asksForHelp(args)) {
            stdout.print(USAGE);
            return OK;
        }
        String user;
        String email;
        String url;
        Duration ttl;
        String jdbcUrl;
        Properties login = new Properties();
        try {
            OptionArguments options = OptionArguments.parse(args, NAMES, Set.of());
            user = options.value("--user").orElse("demo-owner");
            email = options.value("--email").orElse("demo-owner".equals(user) ? "owner@demo.local" : null);
            url = options.value("--url").orElse("http://127.0.0.1:" + (defaults.httpPort() == 0 ? 8080 : defaults.httpPort()));
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new IllegalArgumentException("--url must be an http or https address");
            }
            ttl = Duration.parse(options.value("--ttl").orElse("PT15M"));
            if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("--ttl must be positive and at most a day");
            }
            jdbcUrl = options.value("--jdbc-url").orElse(defaults.jdbcUrl());
            login.setProperty("user", options.value("--db-user").orElse(defaults.postgresUser()));
            login.setProperty("password", options.value("--db-password").orElse(defaults.postgresPassword()));
            login.setProperty("connectTimeout", "5");
        } catch (IllegalArgumentException | DateTimeParseException e) {
            stderr.println("signin-link: " + e.getMessage() + " (see signin-link --help)");
            return USAGE_ERROR;
        }
        try (Connection connection = DriverManager.getConnection(jdbcUrl, login)) {
            String link = SignInLinks.issue(connection, user, email, ttl);
            stdout.println((url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + link);
            stderr.println("signin-link: one-time link for " + user + ", valid " + ttl.toMinutes() + " minutes");
            return OK;
        } catch (SQLException e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            stderr.println("signin-link: PostgreSQL at " + jdbcUrl + ": " + message + " (is the gateway running, and has it"
                    + " started once there?)");
            return FAILED;
        }
    }
}
