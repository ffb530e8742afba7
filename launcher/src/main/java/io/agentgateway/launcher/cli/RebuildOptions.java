package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.projector.rebuild.RebuildSettings;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The arguments of {@code rebuild}: {@code --name value} or {@code --name=value}. What is not given
 * comes from the environment variables the launcher honours, and else from the embedded default's
 * addresses, so that {@code rebuild} with no argument rebuilds the embedded default running here.
 */
record RebuildOptions(RebuildSettings settings) {
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
        OptionArguments options = OptionArguments.parse(args,
                Set.of("--bootstrap-servers", "--jdbc-url", "--db-user", "--db-password", "--timeout"), Set.of());
        String jdbcUrl = options.value("--jdbc-url").map(RebuildOptions::requireJdbcUrl).orElse(environment.jdbcUrl());
        Duration timeout = options.seconds("--timeout").orElse(RebuildSettings.DEFAULT_TIMEOUT);
        return new RebuildOptions(RebuildSettings.of(
                options.value("--bootstrap-servers").orElse(environment.kafkaBootstrapServers()), jdbcUrl,
                options.value("--db-user").orElse(environment.postgresUser()),
                options.value("--db-password").orElse(environment.postgresPassword())).withTimeout(timeout));
    }

    private static String requireJdbcUrl(String value) {
        if (!value.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--jdbc-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database),"
                    + " not '" + value + "'");
        }
        return value;
    }
}
