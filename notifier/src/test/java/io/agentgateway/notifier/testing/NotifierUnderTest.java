package io.agentgateway.notifier.testing;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.notifier.NotifierApplication;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The notifier application as its end-to-end tests run it: on the shared broker and PostgreSQL (a database of its
 * own), sending to a GreenMail SMTP server and a chat webhook server of its own, with a fresh sealing key and a
 * fresh consumer group (both lanes' groups start at the end of the notifications topic, so earlier tests' records
 * are not delivered again).
 */
public final class NotifierUnderTest implements AutoCloseable {
    private final SmtpServer smtp;
    private final ChatWebhookServer chat;
    private final SecretBox secretBox;
    private final String bootstrapServers;
    private final int partitions;
    private final ConfigurableApplicationContext context;

    private NotifierUnderTest(SmtpServer smtp, ChatWebhookServer chat, SecretBox secretBox, String bootstrapServers,
                              int partitions, ConfigurableApplicationContext context) {
        this.smtp = smtp;
        this.chat = chat;
        this.secretBox = secretBox;
        this.bootstrapServers = bootstrapServers;
        this.partitions = partitions;
        this.context = context;
    }

    /**
     * @param database    the name of its database on the shared PostgreSQL
     * @param groupPrefix its consumer group's name before a random suffix
     * @param settings    further {@code --key=value} arguments
     */
    public static NotifierUnderTest start(String database, String groupPrefix, String... settings) throws Exception {
        return start(SharedTestInfra.postgres(), database, groupPrefix, settings);
    }

    /** As {@link #start(String, String, String...)} on a PostgreSQL of the test's own (one it stops and starts). */
    public static NotifierUnderTest start(EmbeddedPostgresServer postgres, String database, String groupPrefix,
                                          String... settings) throws Exception {
        String bootstrapServers = SharedTestInfra.kafka().bootstrapServers();
        SmtpServer smtp = SmtpServer.start();
        ChatWebhookServer chat = ChatWebhookServer.start();
        String key = Notifications.newSecretKey();
        String groupId = groupPrefix + UUID.randomUUID();
        int partitions = startGroupAtEnd(bootstrapServers, groupId);
        // the kill-switch lane's consumer group (gateway.notifier.urgent-group-id, by default <group-id>-urgent)
        startGroupAtEnd(bootstrapServers, groupId + "-urgent");
        List<String> args = new ArrayList<>(List.of(
                "--spring.main.banner-mode=off",
                // the chat webhook receivers of these tests listen on loopback
                "--gateway.egress.allow=127.0.0.0/8",
                "--spring.kafka.bootstrap-servers=" + bootstrapServers,
                "--spring.datasource.url=" + postgres.createDatabase(database),
                "--spring.datasource.username=" + postgres.username(),
                "--spring.datasource.password=" + postgres.password(),
                "--spring.mail.host=127.0.0.1",
                "--spring.mail.port=" + smtp.port(),
                "--gateway.secrets.key=" + key,
                "--gateway.notifier.group-id=" + groupId));
        args.addAll(List.of(settings));
        ConfigurableApplicationContext context = NotifierApplication.application().run(args.toArray(String[]::new));
        return new NotifierUnderTest(smtp, chat, SecretBox.fromBase64Key(key), bootstrapServers, partitions, context);
    }

    /** Commits the group's offsets at the end of every partition of the notifications topic. @return the partitions */
    private static int startGroupAtEnd(String bootstrapServers, String groupId) throws Exception {
        TopicProvisioner.ensureTopics(bootstrapServers, new TopicProvisioner.Layout(6, 4, (short) 1));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            String topic = Topics.NOTIFICATIONS.name();
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetAndMetadata> ends = admin.listOffsets(latest).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> new OffsetAndMetadata(e.getValue().offset())));
            admin.alterConsumerGroupOffsets(groupId, ends).all().get();
            return partitions;
        }
    }

    public SmtpServer smtp() {
        return smtp;
    }

    public ChatWebhookServer chat() {
        return chat;
    }

    /** Seals with the notifier's key (chat webhook URLs). */
    public SecretBox secretBox() {
        return secretBox;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Partitions of the notifications topic. */
    public int partitions() {
        return partitions;
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
        chat.close();
        smtp.close();
    }
}
