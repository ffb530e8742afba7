package io.agentgateway.launcher;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the embedded default needs to know, read from environment variables (or the same names as
 * system properties, for tests). An external Kafka or PostgreSQL is used when its standard Spring
 * variable is set; otherwise one is started in process with its data under {@code dataDir}.
 *
 * @param dataDir            GATEWAY_DATA_DIR (default ./data): broker log, PostgreSQL cluster, secrets
 * @param externalKafka      SPRING_KAFKA_BOOTSTRAP_SERVERS, if set
 * @param externalPostgres   SPRING_DATASOURCE_URL, if set (with SPRING_DATASOURCE_USERNAME/PASSWORD)
 * @param kafkaPort          GATEWAY_KAFKA_PORT for the embedded broker (default 29092; 0 = any free)
 * @param postgresPort       GATEWAY_POSTGRES_PORT for the embedded PostgreSQL (default 25432; 0 = any)
 * @param httpPort           SERVER_PORT of the ingress (default 8080; 0 = any free)
 * @param seedDemo           GATEWAY_SEED_DEMO (default true): create and print a demo workspace on first start
 */
public record LauncherSettings(
        Path dataDir,
        Optional<String> externalKafka,
        Optional<String> externalPostgres,
        String postgresUser,
        String postgresPassword,
        int kafkaPort,
        int postgresPort,
        int httpPort,
        boolean seedDemo,
        boolean temporaryData) {

    /** The database of the embedded PostgreSQL that holds the read models. */
    public static final String DATABASE = "gateway";

    public static LauncherSettings fromEnvironment() {
        return from(System.getenv());
    }

    static LauncherSettings from(Map<String, String> env) {
        return new LauncherSettings(
                Path.of(value(env, "GATEWAY_DATA_DIR").orElse("data")),
                value(env, "SPRING_KAFKA_BOOTSTRAP_SERVERS"),
                value(env, "SPRING_DATASOURCE_URL"),
                value(env, "SPRING_DATASOURCE_USERNAME").orElse("postgres"),
                value(env, "SPRING_DATASOURCE_PASSWORD").orElse("postgres"),
                port(env, "GATEWAY_KAFKA_PORT", 29092),
                port(env, "GATEWAY_POSTGRES_PORT", 25432),
                port(env, "SERVER_PORT", 8080),
                Boolean.parseBoolean(value(env, "GATEWAY_SEED_DEMO").orElse("true")),
                false);
    }

    /** Everything in process on free ports with throwaway data: tests and the benchmark. */
    public static LauncherSettings ephemeral(Path dataDir) {
        return new LauncherSettings(dataDir, Optional.empty(), Optional.empty(), "postgres", "postgres",
                0, 0, 0, false, true);
    }

    /** Where the gateway these settings describe has its Kafka: the external one, else the embedded broker on loopback. */
    public String kafkaBootstrapServers() {
        return externalKafka.orElse("127.0.0.1:" + kafkaPort);
    }

    /** Where it has its read models: the external PostgreSQL, else the embedded one on loopback. */
    public String jdbcUrl() {
        return externalPostgres.orElse("jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + DATABASE);
    }

    private static int port(Map<String, String> env, String name, int fallback) {
        String raw = value(env, name).orElse(Integer.toString(fallback));
        try {
            int port = Integer.parseInt(raw);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a port number (0-65535), not '" + raw + "'");
        }
    }

    /** The address the ingress binds: SERVER_ADDRESS, loopback unless told otherwise. */
    public static String serverAddress() {
        return value(System.getenv(), "SERVER_ADDRESS").orElse("127.0.0.1");
    }

    /** A system property wins over the environment variable of the same name. */
    private static Optional<String> value(Map<String, String> env, String name) {
        String v = System.getProperty(name, env.get(name));
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }
}
