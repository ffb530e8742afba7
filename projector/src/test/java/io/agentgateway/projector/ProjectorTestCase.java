package io.agentgateway.projector;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One running projector per test class, on a fresh database of its own, with a publisher of events
 * and a JDBC view of the read models.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ProjectorTestCase {
    private final String databasePrefix;
    protected RunningProjector projector;
    protected EventPublisher publisher;
    protected JdbcTemplate jdbc;

    protected ProjectorTestCase(String databasePrefix) {
        this.databasePrefix = databasePrefix;
    }

    @BeforeAll
    void start() {
        projector = RunningProjector.start(databasePrefix);
        publisher = new EventPublisher();
        jdbc = projector.jdbc();
    }

    @AfterAll
    void stop() {
        publisher.close();
        projector.close();
    }
}
