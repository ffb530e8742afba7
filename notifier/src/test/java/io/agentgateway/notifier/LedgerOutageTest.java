package io.agentgateway.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentgateway.embeddedinfra.RestartablePostgres;
import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.notifier.testing.NotifierUnderTest;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The delivery ledger's PostgreSQL stops while a kill-switch alert is waiting to go out. Without its ledger the
 * notifier cannot send at most once, so it must wait; and a wait is not a delivery attempt: the alert must not use
 * up its attempts and be dead-lettered (before this test, 5 attempts of Hikari's 30 s each: an outage of about
 * 2.5 minutes and the humans were never told). Once PostgreSQL is back, the alert goes out, once.
 */
class LedgerOutageTest {
    private static final int MAX_ATTEMPTS = 2;

    @Test
    void aKillSwitchAlertWaitsForItsLedgerInsteadOfUsingUpItsAttempts() throws Exception {
        ListAppender<ILoggingEvent> logLines = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        try (RestartablePostgres postgres = RestartablePostgres.start();
             NotifierUnderTest run = NotifierUnderTest.start(postgres.server(), "notifier_ledger_outage", "notifier-outage-",
                "--gateway.notifier.mail-from=gateway@example.test",
                "--gateway.notifier.max-attempts=" + MAX_ATTEMPTS,
                "--gateway.notifier.initial-backoff=PT0.05S",
                "--gateway.notifier.max-backoff=PT0.2S",
                // each attempt gives up on the pool within a second: the attempts would be used up well within the outage
                "--spring.datasource.hikari.connection-timeout=1000",
                "--spring.kafka.consumer.fetch-max-wait=50ms");
             KafkaProducer<String, NotificationRequested> producer = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, run.bootstrapServers()),
                     Topics.NOTIFICATIONS.keySerde().serializer(), Topics.NOTIFICATIONS.valueSerde().serializer())) {
            String workspace = UUID.randomUUID().toString();
            String before = address("before");
            publish(producer, Notifications.killSwitch(workspace, List.of(before), null));
            await().atMost(Duration.ofSeconds(30)).until(() -> run.smtp().mailbox(before).size() == 1);

            logLines.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
            logLines.start();
            root.addAppender(logLines);
            postgres.stop();
            String during = address("during");
            publish(producer, Notifications.killSwitch(workspace, List.of(during), null));
            // each attempt after the first waits out the pool's second: more of them than the alert has attempts
            await().atMost(Duration.ofSeconds(60)).until(() -> poolTimeouts(run) >= MAX_ATTEMPTS + 1);
            assertThat(run.smtp().mailbox(during)).as("nothing can be sent at most once without the ledger").isEmpty();

            postgres.restart();
            await().atMost(Duration.ofSeconds(30)).until(() -> run.smtp().mailbox(during).size() == 1);
            String after = address("after");
            publish(producer, Notifications.killSwitch(workspace, List.of(after), null));
            await().atMost(Duration.ofSeconds(30)).until(() -> run.smtp().mailbox(after).size() == 1);
            assertThat(run.smtp().mailbox(during)).as("sent once").hasSize(1);
            root.detachAppender(logLines);

            List<ILoggingEvent> lines = List.copyOf(logLines.list);
            assertThat(lines).as("no ERROR (a dead-lettered alert is one): %s", describe(lines))
                    .noneMatch(line -> line.getLevel().isGreaterOrEqual(Level.ERROR));
            assertThat(lines).filteredOn(line -> line.getFormattedMessage().contains("waits for its delivery ledger"))
                    .as(describe(lines)).isNotEmpty().allMatch(line -> line.getLevel() == Level.WARN
                            && line.getThrowableProxy() == null);
        } finally {
            root.detachAppender(logLines);
        }
    }

    private static void publish(KafkaProducer<String, NotificationRequested> producer, NotificationRequested notification)
            throws Exception {
        producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), notification.workspaceId(), notification))
                .get(10, TimeUnit.SECONDS);
    }

    /** Attempts that waited out Hikari's connection timeout: only the kill-switch lane reads the ledger here. */
    private static double poolTimeouts(NotifierUnderTest run) {
        return run.context().getBean(MeterRegistry.class).find("hikaricp.connections.timeout").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static String address(String name) {
        return name + "-" + UUID.randomUUID() + "@example.test";
    }

    private static String describe(List<ILoggingEvent> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append('\n').append(line.getLevel()).append(' ').append(line.getLoggerName())
                .append(": ").append(line.getFormattedMessage()));
        return text.toString();
    }
}
