package io.agentgateway.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.notifier.testing.ChatWebhookServer;
import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.notifier.testing.NotifierUnderTest;
import io.agentgateway.notifier.testing.SmtpServer;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 14: a flood of approval requests must delay no kill-switch alert (its own lane, measured: delivered
 * within 2 s while 1,000 approval notifications are queued in front of it on the same partition), and one
 * workspace's approvals are sent one by one only up to the limit, the rest summed up in one digest.
 * The notifier application against a real broker, PostgreSQL, GreenMail and a chat webhook that takes
 * 20 ms per post (so that 1,000 approvals are tens of seconds of work).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NotificationLanesTest {
    private static final int LIMIT = 3;
    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final Duration SLOW_CHAT = Duration.ofMillis(20);

    private static SmtpServer smtp;
    private static ChatWebhookServer chat;
    private static SecretBox secretBox;
    private static NotifierUnderTest run;
    private static KafkaProducer<String, NotificationRequested> producer;
    private static String bootstrapServers;
    private static int partitions;

    @BeforeAll
    static void startNotifier() throws Exception {
        run = NotifierUnderTest.start("notifier_lanes", "notifier-lanes-",
                "--gateway.notifier.approval-limit=" + LIMIT,
                "--gateway.notifier.approval-window=PT" + WINDOW.toSeconds() + "S",
                "--spring.kafka.consumer.fetch-max-wait=50ms",
                // stopping a container waits for the records of its last poll: keep that short behind the flood
                "--spring.kafka.consumer.max-poll-records=20");
        smtp = run.smtp();
        chat = run.chat();
        secretBox = run.secretBox();
        bootstrapServers = run.bootstrapServers();
        partitions = run.partitions();
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 5),
                Topics.NOTIFICATIONS.keySerde().serializer(), Topics.NOTIFICATIONS.valueSerde().serializer());
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.close();
        }
        if (run != null) {
            run.close();
        }
    }

    @Test
    @Order(2) // last: it leaves the routine lane a thousand approvals to work through
    void aKillSwitchAlertIsDeliveredWithinTwoSecondsWhileAThousandApprovalNotificationsAreQueuedInFrontOfIt() throws Exception {
        // 1,000 workspaces (one approval each, so no per-workspace limit applies) on the partition of the
        // workspace whose kill switch follows: on one consumer the alert would wait for all of them
        String killed = UUID.randomUUID().toString();
        int partition = partitionOf(killed);
        String floodHook = "/services/flood-" + UUID.randomUUID();
        chat.answerAfter(floodHook, SLOW_CHAT);
        String sealedFloodHook = secretBox.seal(chat.url(floodHook));
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            String workspace = workspaceOnPartition(partition);
            sent.add(producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), workspace,
                    Notifications.approvalRequested(workspace, List.of("reviewer-" + i + "@example.test"), sealedFloodHook))));
        }
        for (Future<RecordMetadata> f : sent) {
            f.get(30, TimeUnit.SECONDS);
        }
        // the flood has begun: the routine lane is working through it
        await().atMost(Duration.ofSeconds(30)).until(() -> chat.posts(floodHook).size() >= 5);

        String admin = "admin-" + UUID.randomUUID() + "@example.test";
        long published = System.nanoTime();
        producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), killed,
                Notifications.killSwitch(killed, List.of(admin), null))).get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> smtp.mailbox(admin).size() == 1);
        Duration took = Duration.ofNanos(System.nanoTime() - published);
        int approvalsDone = chat.posts(floodHook).size();
        assertThat(took).as("kill-switch alert delivered after %s", took).isLessThan(Duration.ofSeconds(2));
        assertThat(approvalsDone).as("approval notifications still queued when the alert went out").isLessThan(900);
    }

    @Test
    @Order(1)
    void aWorkspacesApprovalsAreSentOneByOneUpToTheLimitAndTheRestInOneDigestWhenTheWindowEnds() throws Exception {
        String workspace = UUID.randomUUID().toString();
        String reviewer = "reviewer-" + UUID.randomUUID() + "@example.test";
        String hook = "/services/" + UUID.randomUUID();
        String sealedHook = secretBox.seal(chat.url(hook));
        List<NotificationRequested> approvals = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            approvals.add(Notifications.approvalRequested(workspace, List.of(reviewer), sealedHook));
        }
        for (NotificationRequested approval : approvals) {
            producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), workspace, approval)).get(10, TimeUnit.SECONDS);
        }
        // an unrelated workspace is not held back by this one's limit
        String other = UUID.randomUUID().toString();
        String otherReviewer = "other-" + UUID.randomUUID() + "@example.test";
        producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), other,
                Notifications.approvalRequested(other, List.of(otherReviewer), null))).get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(30)).until(() -> smtp.mailbox(reviewer).size() == LIMIT + 1);
        List<MimeMessage> mails = smtp.mailbox(reviewer);
        List<String> subjects = mails.stream().map(SmtpServer::subject).toList();
        assertThat(subjects.subList(0, LIMIT)).allMatch(subject -> subject.startsWith("Approval needed:"));
        assertThat(body(mails.get(LIMIT - 1))).contains("This is approval request " + LIMIT + " of this workspace within 3 seconds",
                "are not sent one by one but summed up in one message");
        String digest = body(mails.get(LIMIT));
        assertThat(subjects.get(LIMIT)).isEqualTo("7 more approval requests in workspace Acme");
        assertThat(digest).contains("7 more approval requests of workspace Acme", "(at most 3 per ",
                "Pending approvals: GET /admin/v1/workspaces/" + workspace + "/approvals?status=pending");
        for (NotificationRequested held : approvals.subList(LIMIT, approvals.size())) {
            assertThat(digest).contains(held.details().get("approvalRequestId"));
        }
        assertThat(smtp.mailbox(otherReviewer)).hasSize(1);
        // the chat gets the same: three messages and the digest
        await().atMost(Duration.ofSeconds(10)).until(() -> chat.acceptedPosts(hook).size() == LIMIT + 1);
        assertThat(chat.acceptedPosts(hook).get(LIMIT).text()).contains("7 more approval requests");
        // nothing more arrives: the digest went once
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> smtp.mailbox(reviewer).size() == LIMIT + 1);
    }

    private static String body(MimeMessage message) throws Exception {
        return new String(message.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private static String workspaceOnPartition(int partition) {
        while (true) {
            String candidate = UUID.randomUUID().toString();
            if (partitionOf(candidate) == partition) {
                return candidate;
            }
        }
    }
}
