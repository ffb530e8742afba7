package io.agentgateway.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.notifier.ledger.DeliveryStatus;
import io.agentgateway.notifier.testing.ChatWebhookServer;
import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.notifier.testing.NotifierUnderTest;
import io.agentgateway.notifier.testing.SmtpServer;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.deadletter.DeadLetterHeaders;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.mail.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/**
 * The notifier application end to end: a real broker, a real PostgreSQL, GreenMail as the SMTP
 * server and a JDK HTTP server as the chat webhook. Every test uses its own workspace (so its own
 * key and partition order), its own recipients and its own webhook path.
 */
class NotifierDeliveryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int MAX_ATTEMPTS = 4;
    private static final String PUBLIC_BASE_URL = "https://gateway.example.test";

    private static NotifierUnderTest run;
    private static SmtpServer smtp;
    private static ChatWebhookServer chat;
    private static SecretBox secretBox;
    private static ConfigurableApplicationContext notifier;
    private static KafkaProducer<String, NotificationRequested> producer;
    private static KafkaProducer<String, byte[]> rawProducer;
    private static JdbcClient jdbc;
    private static String bootstrapServers;

    @BeforeAll
    static void startNotifier() throws Exception {
        run = NotifierUnderTest.start("notifier_e2e", "notifier-test-",
                "--spring.datasource.hikari.maximum-pool-size=3",
                "--gateway.notifier.mail-from=gateway@example.test",
                "--gateway.notifier.max-attempts=" + MAX_ATTEMPTS,
                "--gateway.notifier.public-base-url=" + PUBLIC_BASE_URL + "/",
                "--gateway.notifier.initial-backoff=PT0.02S",
                "--gateway.notifier.max-backoff=PT0.1S",
                // a retry seeks back; without this the consumer first sits out its pending fetch (500 ms)
                "--spring.kafka.consumer.fetch-max-wait=50ms");
        smtp = run.smtp();
        chat = run.chat();
        secretBox = run.secretBox();
        bootstrapServers = run.bootstrapServers();
        notifier = run.context();
        jdbc = JdbcClient.create(notifier.getBean(DataSource.class));

        Map<String, Object> producerConfig = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        producer = new KafkaProducer<>(producerConfig,
                Topics.NOTIFICATIONS.keySerde().serializer(), Topics.NOTIFICATIONS.valueSerde().serializer());
        rawProducer = new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
    }

    @AfterAll
    static void stopNotifier() {
        if (producer != null) {
            producer.close();
            rawProducer.close();
        }
        if (run != null) {
            run.close();
        }
    }

    @Test
    void deliversTheEmailToEveryRecipientAndPostsToTheChatWebhook() {
        String workspace = newWorkspace();
        String alice = newAddress("alice");
        String bob = newAddress("bob");
        String hook = newHookPath();
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(alice, bob), sealed(hook));

        publish(notification);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(smtp.mailbox(alice)).hasSize(1);
            assertThat(smtp.mailbox(bob)).hasSize(1);
            assertThat(chat.acceptedPosts(hook)).hasSize(1);
        });
        var email = smtp.mailbox(alice).get(0);
        assertThat(SmtpServer.subject(email)).isEqualTo(notification.subject());
        assertThat(SmtpServer.addresses(emailRecipients(email))).containsExactly(alice, bob);
        assertThat(chat.acceptedPosts(hook).get(0).text()).contains(notification.subject()).contains("action: enable");
        // the ledger marks a delivery sent after the relay accepted it: a moment after the mailbox has it
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(status(notification, "email")).isEqualTo(DeliveryStatus.SENT);
            assertThat(status(notification, "chat")).isEqualTo(DeliveryStatus.SENT);
        });
    }

    @Test
    void anApprovalRequestReachesEveryReviewerOnceWithHowToReviewIt() throws Exception {
        String workspace = newWorkspace();
        String owner = newAddress("owner");
        String admin = newAddress("admin");
        String hook = newHookPath();
        NotificationRequested notification = Notifications.approvalRequested(workspace, List.of(owner, admin), sealed(hook));
        String approvalId = notification.details().get(ApprovalRequestNotice.APPROVAL_REQUEST_ID);
        String approval = PUBLIC_BASE_URL + "/admin/v1/workspaces/" + workspace + "/approvals/" + approvalId;

        publish(notification);
        publish(notification); // the decision stream re-emits it when it sees its command again
        publishRoutineMarkerAndAwaitIt(workspace);

        assertThat(smtp.mailbox(owner)).hasSize(1);
        assertThat(smtp.mailbox(admin)).hasSize(1);
        assertThat(chat.acceptedPosts(hook)).hasSize(1);
        var email = smtp.mailbox(owner).get(0);
        assertThat(SmtpServer.subject(email)).isEqualTo(notification.subject());
        assertThat(email.getContent().toString()).contains(notification.text())
                .contains("Approve: POST " + approval + "/approve")
                .contains("Reject: POST " + approval + "/reject")
                .contains("tool: code_host", "action: pull_request.merge", "riskLevel: high", "agentId: deploy-bot",
                        "reason: Merges need a human", "expiresAt: 2025-01-03T03:04:05Z");
        assertThat(chat.acceptedPosts(hook).get(0).text()).contains("Approve: POST " + approval + "/approve")
                .contains("Reject: POST " + approval + "/reject");
        assertThat(status(notification, "email")).isEqualTo(DeliveryStatus.SENT);
        assertThat(status(notification, "chat")).isEqualTo(DeliveryStatus.SENT);
    }

    @Test
    void anApprovalRequestShowsTheReviewersWhatWillRunAndTheDigestThatBindsIt() throws Exception {
        // issue 16: the view the entry point made of the held call (already redacted and bounded there)
        String workspace = newWorkspace();
        String owner = newAddress("owner");
        String hook = newHookPath();
        CallView call = new CallView("POST", "/graphql", null, "IssueDelete",
                "mutation IssueDelete($id: String!) {\n  issueDelete(id: $id) { success }\n}", "{\"id\":\"ISS-42\",\"apiKey\":\"[redacted]\"}",
                null, null, null, null, 161, false, true);
        String digest = "ab".repeat(32);
        NotificationRequested notification = Notifications.approvalRequestedWithCall(workspace, List.of(owner), sealed(hook),
                call, digest);

        publish(notification);
        publishRoutineMarkerAndAwaitIt(workspace);

        // SMTP carries CRLF line ends
        String email = smtp.mailbox(owner).get(0).getContent().toString().replace("\r\n", "\n");
        assertThat(email).contains("What will run (as the gateway holds it; secrets redacted, long parts cut):",
                "  Request: POST /graphql", "  GraphQL operation: IssueDelete", "  GraphQL document:\n    mutation IssueDelete($id: String!) {\n      issueDelete(id: $id) { success }",
                "  GraphQL variables: {\"id\":\"ISS-42\",\"apiKey\":\"[redacted]\"}", "  Call digest: " + digest);
        assertThat(email.indexOf("What will run")).as("before the details").isLessThan(email.indexOf("Details:"));
        assertThat(email).as("shown once, not again among the details").doesNotContain("callGraphqlDocument");
        await().atMost(WAIT).until(() -> !chat.acceptedPosts(hook).isEmpty());
        String chatText = chat.acceptedPosts(hook).get(0).text();
        assertThat(chatText).contains("*What will run*", "• Request: POST /graphql", "• GraphQL operation: IssueDelete",
                "• GraphQL document:\n```mutation IssueDelete", "ISS-42", "• Call digest: " + digest);
    }

    @Test
    void postsNothingToChatWhenNoWebhookIsConfigured() {
        String workspace = newWorkspace();
        String carol = newAddress("carol");
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(carol), null);

        publish(notification);
        publishMarkerAndAwaitIt(workspace);

        assertThat(smtp.mailbox(carol)).hasSize(1);
        assertThat(chat.allPosts()).noneMatch(post -> post.body().contains(notification.notificationId()));
        assertThat(ledgerRows(notification)).containsOnlyKeys("email");
    }

    @Test
    void aNotificationPublishedTwiceIsDeliveredOncePerChannel() {
        String workspace = newWorkspace();
        String dave = newAddress("dave");
        String hook = newHookPath();
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(dave), sealed(hook));

        publish(notification);
        publish(notification);
        publishMarkerAndAwaitIt(workspace);

        assertThat(smtp.mailbox(dave)).hasSize(1);
        assertThat(chat.posts(hook)).hasSize(1);
    }

    @Test
    void aChatThatFailsTwiceThenSucceedsGetsOneMessageAndTheEmailIsNotRepeated() {
        String workspace = newWorkspace();
        String erin = newAddress("erin");
        String hook = newHookPath();
        chat.failNext(hook, 2);
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(erin), sealed(hook));

        publish(notification);
        publishMarkerAndAwaitIt(workspace);

        assertThat(chat.posts(hook)).hasSize(3);
        assertThat(chat.acceptedPosts(hook)).hasSize(1);
        assertThat(smtp.mailbox(erin)).hasSize(1);
        assertThat(status(notification, "chat")).isEqualTo(DeliveryStatus.SENT);
        assertThat(attempts(notification, "chat")).isEqualTo(3);
        assertThat(attempts(notification, "email")).isEqualTo(1);
        assertThat(deadLetters(notification)).isEmpty();
    }

    @Test
    void aChatThatAlwaysFailsEndsInTheDeadLetterTopicWithTheErrorAndOneEmail() {
        String workspace = newWorkspace();
        String frank = newAddress("frank");
        String hook = newHookPath();
        chat.failAlways(hook);
        double deadLetteredBefore = count("chat", "dead_lettered");
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(frank), sealed(hook));

        publish(notification);

        List<ConsumerRecord<String, NotificationRequested>> deadLetters =
                await().atMost(WAIT).until(() -> deadLetters(notification), records -> !records.isEmpty());
        assertThat(deadLetters).hasSize(1);
        ConsumerRecord<String, NotificationRequested> deadLetter = deadLetters.get(0);
        assertThat(deadLetter.key()).isEqualTo(workspace);
        assertThat(deadLetter.value()).isEqualTo(notification);
        assertThat(header(deadLetter, "kafka_dlt-original-topic")).isEqualTo(Topics.NOTIFICATIONS.name());
        assertThat(header(deadLetter, "kafka_dlt-exception-cause-fqcn")).isEqualTo(NotificationDeliveryException.class.getName());
        assertThat(header(deadLetter, "kafka_dlt-exception-message")).contains("chat webhook answered HTTP 500");
        assertThat(header(deadLetter, DeadLetterHeaders.FAILED_CHANNELS)).isEqualTo("chat");
        assertThat(header(deadLetter, DeadLetterHeaders.DELIVERY_ERROR))
                .isEqualTo("chat: chat webhook answered HTTP 500");
        // the webhook URL is a credential: nothing about the failure may quote it
        deadLetter.headers().forEach(h -> assertThat(new String(h.value(), StandardCharsets.UTF_8)).doesNotContain(hook));

        assertThat(chat.posts(hook)).hasSize(MAX_ATTEMPTS);
        assertThat(chat.acceptedPosts(hook)).isEmpty();
        assertThat(smtp.mailbox(frank)).hasSize(1);
        assertThat(status(notification, "chat")).isEqualTo(DeliveryStatus.FAILED);
        assertThat(attempts(notification, "chat")).isEqualTo(MAX_ATTEMPTS);
        assertThat(count("chat", "dead_lettered")).isEqualTo(deadLetteredBefore + 1);
    }

    @Test
    void anUnreadableRecordIsSkippedAndTheNextOneIsDelivered() {
        String workspace = newWorkspace();
        double skippedBefore = skippedCount();

        rawProducer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), workspace,
                "{not json".getBytes(StandardCharsets.UTF_8)));
        rawProducer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), workspace,
                "{\"schemaVersion\":1,\"subject\":\"no id\"}".getBytes(StandardCharsets.UTF_8)));
        rawProducer.flush();
        publishMarkerAndAwaitIt(workspace);

        assertThat(skippedCount()).isEqualTo(skippedBefore + 2);
        assertThat(deadLettersWithKey(workspace)).isEmpty();
    }

    @Test
    void aNotificationFoundMidSendAfterACrashIsNotSentAgain() {
        String workspace = newWorkspace();
        String grace = newAddress("grace");
        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(grace), null);
        // what a notifier that died between its claim and the SMTP answer leaves behind
        jdbc.sql("insert into notifier.notification_deliveries (notification_id, channel, status, attempts) values (?, 'email', 'sending', 1)")
                .params(notification.notificationId())
                .update();
        double unknownBefore = count("email", "unknown");

        publish(notification);
        publishMarkerAndAwaitIt(workspace);

        assertThat(smtp.mailbox(grace)).isEmpty();
        assertThat(status(notification, "email")).isEqualTo(DeliveryStatus.UNKNOWN);
        assertThat(count("email", "unknown")).isEqualTo(unknownBefore + 1);
    }

    /**
     * Every delivery the ledger records as sent is counted once, per channel. Other tests' deliveries can land while
     * this one runs (an approval digest is sent when its window ends, on a thread of its own), so the counters are
     * held against the ledger's sent rows over the same interval rather than against this one notification.
     */
    @Test
    void countsDeliveriesPerChannel() {
        Map<String, double[]> before = Map.of("email", settledSentCount("email"), "chat", settledSentCount("chat"));
        String workspace = newWorkspace();
        String hook = newHookPath();

        NotificationRequested notification = Notifications.killSwitch(workspace, List.of(newAddress("heidi")), sealed(hook));
        publish(notification);
        await().atMost(WAIT).until(() -> chat.acceptedPosts(hook).size() == 1);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(status(notification, "email")).isEqualTo(DeliveryStatus.SENT);
            assertThat(status(notification, "chat")).isEqualTo(DeliveryStatus.SENT);
            for (String channel : List.of("email", "chat")) {
                double[] now = settledSentCount(channel);
                assertThat(now[0] - before.get(channel)[0]).as("%s deliveries counted", channel)
                        .isEqualTo(now[1] - before.get(channel)[1])
                        .isGreaterThanOrEqualTo(1);
            }
        });
    }

    /**
     * The {@code sent} counter of a channel and the ledger's sent rows of that channel, once both read the same in two
     * polls 100 ms apart: the ledger is marked just before the counter is incremented, so a read between the two of
     * one delivery would pair a row with no count, and a baseline taken then would stay one off.
     */
    private static double[] settledSentCount(String channel) {
        double[][] previous = {null};
        return await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).until(() -> {
            double[] now = {count(channel, "sent"), jdbc.sql(
                    "select count(*) from notifier.notification_deliveries where channel = ? and status = 'sent'")
                    .params(channel).query(Long.class).single()};
            double[] before = previous[0];
            previous[0] = now;
            return Arrays.equals(now, before) ? now : null;
        }, Objects::nonNull);
    }

    @Test
    void keepsItsMigrationHistoryInItsOwnSchemaAndBoundsSmtpWaits() {
        assertThat(jdbc.sql("select count(*) from information_schema.tables where table_name = 'flyway_schema_history'"
                        + " and table_schema = ?").params("notifier").query(Integer.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("select count(*) from information_schema.tables where table_name = 'flyway_schema_history'"
                        + " and table_schema = ?").params("public").query(Integer.class).single()).isZero();

        JavaMailSenderImpl mailSender = (JavaMailSenderImpl) notifier.getBean(JavaMailSender.class);
        assertThat(mailSender.getJavaMailProperties())
                .containsEntry("mail.smtp.connectiontimeout", "5000")
                .containsEntry("mail.smtp.timeout", "10000")
                .containsEntry("mail.smtp.writetimeout", "10000");
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * Publishes an email-only notification on the workspace's partition and waits for it: records of
     * one partition are handled in order (retries included), so once the marker is delivered,
     * everything published before it for that workspace is finished.
     */
    /**
     * As {@link #publishMarkerAndAwaitIt} for approval requests: they travel on the routine lane, so only a marker of
     * that lane (and workspace) comes after them; a kill-switch marker may overtake them.
     */
    private static void publishRoutineMarkerAndAwaitIt(String workspace) {
        String marker = newAddress("routine-marker");
        publish(Notifications.approvalRequested(workspace, List.of(marker), null));
        await().atMost(WAIT).until(() -> smtp.mailbox(marker).size() == 1);
    }

    private static void publishMarkerAndAwaitIt(String workspace) {
        String marker = newAddress("marker");
        publish(Notifications.killSwitch(workspace, List.of(marker), null));
        await().atMost(WAIT).until(() -> smtp.mailbox(marker).size() == 1);
    }

    private static void publish(NotificationRequested notification) {
        try {
            producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), notification.workspaceId(), notification))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish the test notification", e);
        }
    }

    /** The group starts at the current end of the topic: records of earlier runs are not ours. */
    private static List<ConsumerRecord<String, NotificationRequested>> deadLetters(NotificationRequested notification) {
        return readDeadLetterTopic().stream()
                .filter(r -> r.value() != null && notification.notificationId().equals(r.value().notificationId()))
                .toList();
    }

    private static List<ConsumerRecord<String, NotificationRequested>> deadLettersWithKey(String key) {
        return readDeadLetterTopic().stream().filter(r -> key.equals(r.key())).toList();
    }

    private static List<ConsumerRecord<String, NotificationRequested>> readDeadLetterTopic() {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, NotificationRequested> consumer = new KafkaConsumer<>(config,
                Topics.NOTIFICATIONS_DEAD_LETTER.keySerde().deserializer(),
                Topics.NOTIFICATIONS_DEAD_LETTER.valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.NOTIFICATIONS_DEAD_LETTER.name()).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, NotificationRequested>> records = new ArrayList<>();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static DeliveryStatus status(NotificationRequested notification, String channel) {
        return DeliveryStatus.fromWireName(ledgerRows(notification).get(channel));
    }

    private static Map<String, String> ledgerRows(NotificationRequested notification) {
        return jdbc.sql("select channel, status from notifier.notification_deliveries where notification_id = ?")
                .params(notification.notificationId())
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getString(2)))
                .list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static int attempts(NotificationRequested notification, String channel) {
        return jdbc.sql("select attempts from notifier.notification_deliveries where notification_id = ? and channel = ?")
                .params(notification.notificationId(), channel)
                .query(Integer.class)
                .single();
    }

    private static double count(String channel, String outcome) {
        Counter counter = notifier.getBean(MeterRegistry.class).find(DeliveryMetrics.DELIVERIES)
                .tags("channel", channel, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private static double skippedCount() {
        Counter counter = notifier.getBean(MeterRegistry.class).find(DeliveryMetrics.SKIPPED_RECORDS).counter();
        return counter == null ? 0 : counter.count();
    }

    private static jakarta.mail.Address[] emailRecipients(jakarta.mail.internet.MimeMessage message) {
        try {
            return message.getRecipients(Message.RecipientType.TO);
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sealed(String hookPath) {
        return secretBox.seal(chat.url(hookPath));
    }

    private static String newWorkspace() {
        return UUID.randomUUID().toString();
    }

    private static String newHookPath() {
        return "/services/" + UUID.randomUUID();
    }

    private static String newAddress(String name) {
        return name + "-" + UUID.randomUUID() + "@example.test";
    }
}
