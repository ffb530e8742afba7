package io.agentgateway.projector;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.projector.consume.ProjectionMetrics;
import io.agentgateway.projector.consume.SkipReason;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The real projector application on the shared broker and a fresh, empty database of its own, with
 * a consumer group of its own (so it reads the events topic from the start).
 */
final class RunningProjector implements AutoCloseable {
    private final ConfigurableApplicationContext context;
    private final JdbcTemplate jdbc;
    private final String jdbcUrl;

    private RunningProjector(ConfigurableApplicationContext context, String jdbcUrl) {
        this.context = context;
        this.jdbcUrl = jdbcUrl;
        this.jdbc = new JdbcTemplate(context.getBean(DataSource.class));
    }

    static RunningProjector start(String databasePrefix) {
        return startOn(SharedTestInfra.postgres().createDatabase(databasePrefix), "projector-test-" + UUID.randomUUID());
    }

    /** On an existing database, in the given consumer group (a restart: it goes on from the group's offsets). */
    static RunningProjector startOn(String jdbcUrl, String groupId) {
        var postgres = SharedTestInfra.postgres();
        // command-line arguments outrank the module's defaults and the environment
        ConfigurableApplicationContext context = ProjectorApplication.application().run(
                "--spring.kafka.bootstrap-servers=" + SharedTestInfra.kafka().bootstrapServers(),
                "--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=" + postgres.username(),
                "--spring.datasource.password=" + postgres.password(),
                "--gateway.projector.group-id=" + groupId,
                "--spring.main.banner-mode=off",
                // the clients' INFO lines would drown the test output
                "--logging.level.org.apache.kafka=WARN",
                "--logging.level.kafka=WARN",
                "--logging.level.org.springframework.kafka=WARN");
        return new RunningProjector(context, jdbcUrl);
    }

    String jdbcUrl() {
        return jdbcUrl;
    }

    JdbcTemplate jdbc() {
        return jdbc;
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    double skipped(SkipReason reason) {
        return context.getBean(MeterRegistry.class).get(ProjectionMetrics.SKIPPED).tag("reason", reason.tag())
                .counter().count();
    }

    double failedBatches() {
        return context.getBean(MeterRegistry.class).get(ProjectionMetrics.BATCHES_FAILED).counter().count();
    }

    @Override
    public void close() {
        context.close();
    }
}
