package io.agentgateway.projector.consume;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/** What an outage of an hour says: a line at its start, one a minute, one at its end; a defect of ours is an ERROR. */
class WriteFailureLogTest {
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(WriteFailureLog.class);
    private Instant now = Instant.parse("2026-11-28T02:00:00Z");
    private final WriteFailureLog failures = new WriteFailureLog(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @BeforeEach
    void capture() {
        lines.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
    }

    @Test
    void anHourOfRetriesIsALineAMinuteBetweenOneAtTheStartAndOneAtTheEnd() {
        RuntimeException unreachable = new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("Connection is not available", "08001"));
        for (int second = 0; second < 3600; second += 5) {
            now = Instant.parse("2026-11-28T02:00:00Z").plusSeconds(second);
            failures.failed(3, unreachable);
        }
        now = now.plus(Duration.ofSeconds(5));
        failures.landed();
        failures.landed();

        List<ILoggingEvent> logged = List.copyOf(lines.list);
        assertThat(logged).hasSize(1 + 59 + 1);
        assertThat(logged.get(0).getLevel()).isEqualTo(Level.WARN);
        assertThat(logged.get(0).getFormattedMessage()).isEqualTo("PostgreSQL did not take a batch of 3 events (SQLState"
                + " 08001, CannotGetJdbcConnectionException); retrying with back-off, nothing is skipped");
        assertThat(logged.get(1).getFormattedMessage()).isEqualTo("PostgreSQL still does not take a batch of 3 events"
                + " (SQLState 08001, CannotGetJdbcConnectionException); failing for 60 s, 13 attempts");
        assertThat(logged.subList(0, 60)).allMatch(line -> line.getLevel() == Level.WARN && line.getThrowableProxy() == null);
        assertThat(logged.get(60).getLevel()).isEqualTo(Level.INFO);
        assertThat(logged.get(60).getFormattedMessage())
                .isEqualTo("PostgreSQL takes the projector's batches again, after 3600 s and 720 failed attempts");
    }

    @Test
    void aFailureWithoutASqlStateIsADefectAnErrorWithItsStackOnce() {
        IllegalStateException defect = new IllegalStateException("a bug");
        failures.failed(2, defect);
        now = now.plusSeconds(5);
        failures.failed(2, defect);

        assertThat(lines.list).hasSize(1);
        assertThat(lines.list.get(0).getLevel()).isEqualTo(Level.ERROR);
        assertThat(lines.list.get(0).getThrowableProxy().getClassName()).isEqualTo(IllegalStateException.class.getName());
    }
}
