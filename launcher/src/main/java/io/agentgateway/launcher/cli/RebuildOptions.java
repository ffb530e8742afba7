package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.projector.rebuild.RebuildSettings;
import java.time.Duration;
import java.util.List;

/**
 * The arguments of {@code rebuild}: {@code --name value} or {@code --name=value}. What is not given
 * comes from the environment variables the launcher honours, and else from the embedded default's
 * addresses, so that {@code rebuild} with no argument rebuilds the embedded default running here.
 */
record RebuildOptions(RebuildSettings settings, boolean help) {
    static final String USAGE = """
            Usage: java -jar launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar rebuild [options]

            Rebuilds every PostgreSQL read model from the event log (gateway.events.v1) into fresh tables and
            switches the gateway to them; events that arrive meanwhile are kept. The previous tables are moved
            to a schema read_models_archive_<time>. The gateway may keep running.

              --bootstrap-servers HOST:PORT  Kafka (default: SPRING_KAFKA_BOOTSTRAP_SERVERS, else the embedded
                                             default's 127.0.0.1:29092 or GATEWAY_KAFKA_PORT)
              --jdbc-url URL                 the read-model database (default: SPRING_DATASOURCE_URL, else
                                             jdbc:postgresql://127.0.0.1:25432/gateway or GATEWAY_POSTGRES_PORT)
              --db-user NAME                 default: SPRING_DATASOURCE_USERNAME, else postgres
              --db-password SECRET           default: SPRING_DATASOURCE_PASSWORD, else postgres
              --timeout SECONDS              wait for Kafka and for the switch lock (default 30)
              --help                         this text
            """;

    /** @throws IllegalArgumentException with a message for the operator */
    static RebuildOptions parse(List<String> args, LauncherSettings environment) {
        String bootstrap = environment.kafkaBootstrapServers();
        String jdbcUrl = environment.jdbcUrl();
        String user = environment.postgresUser();
        String password = environment.postgresPassword();
        Duration timeout = RebuildSettings.DEFAULT_TIMEOUT;
        boolean help = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size() && isOption(name)) {
                value = args.get(++i);
            } else {
                value = null;
            }
            if (!isOption(name)) {
                throw new IllegalArgumentException("unknown argument '" + arg + "' (see --help)");
            }
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " needs a value (see --help)");
            }
            switch (name) {
                case "--bootstrap-servers" -> bootstrap = value;
                case "--jdbc-url" -> jdbcUrl = requireJdbcUrl(value);
                case "--db-user" -> user = value;
                case "--db-password" -> password = value;
                case "--timeout" -> timeout = seconds(value);
                default -> throw new IllegalStateException(name);
            }
        }
        return new RebuildOptions(RebuildSettings.of(bootstrap, jdbcUrl, user, password).withTimeout(timeout), help);
    }

    private static boolean isOption(String name) {
        return List.of("--bootstrap-servers", "--jdbc-url", "--db-user", "--db-password", "--timeout").contains(name);
    }

    private static String requireJdbcUrl(String value) {
        if (!value.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--jdbc-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database),"
                    + " not '" + value + "'");
        }
        return value;
    }

    private static Duration seconds(String value) {
        try {
            long seconds = Long.parseLong(value);
            if (seconds < 1) {
                throw new NumberFormatException();
            }
            return Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--timeout must be a whole number of seconds (1 or more), not '" + value + "'");
        }
    }
}
