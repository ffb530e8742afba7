package io.agentgateway.embeddedinfra;

/**
 * One Kafka broker and one PostgreSQL per test JVM, started on first use and stopped when the JVM
 * exits. Starting them costs seconds; sharing them keeps the suite fast. Tests isolate themselves by
 * fresh databases ({@link EmbeddedPostgresServer#createDatabase}), unique workspace ids and unique
 * consumer groups, never by expecting empty topics.
 */
public final class SharedTestInfra {
    private static EmbeddedKafkaBroker kafka;
    private static EmbeddedPostgresServer postgres;

    private SharedTestInfra() {}

    public static synchronized EmbeddedKafkaBroker kafka() {
        if (kafka == null) {
            kafka = EmbeddedKafkaBroker.start(null, 0);
            EmbeddedKafkaBroker started = kafka;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-test-kafka"));
        }
        return kafka;
    }

    public static synchronized EmbeddedPostgresServer postgres() {
        if (postgres == null) {
            postgres = EmbeddedPostgresServer.start(null, 0);
            EmbeddedPostgresServer started = postgres;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-test-postgres"));
        }
        return postgres;
    }
}
