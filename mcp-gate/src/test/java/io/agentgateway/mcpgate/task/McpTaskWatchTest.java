package io.agentgateway.mcpgate.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.gatewayclient.LiveEvents;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.mcpgate.ReadModelDatabase;
import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.task.McpTask.ApprovalFacts;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The task watch on a real broker and a real read model: the decision stream's events wake it (every replica: no
 * consumer group), what it answers is what the projector's row shows once it shows the event, nothing is read without
 * an event, and its bounds hold. The test writes the events as the decision stream does and the rows as the projector
 * does (the projector's own migrations make the schema).
 */
class McpTaskWatchTest {
    private static final Duration RETENTION = Duration.ofHours(1);
    private static String bootstrap;
    private static JdbcClient jdbc;

    private final List<LiveEvents> readers = new CopyOnWriteArrayList<>();
    private final List<McpTaskWatch> watches = new CopyOnWriteArrayList<>();
    private final UUID workspace = UUID.randomUUID();
    private final McpCaller caller = new McpCaller(new ApiKeyCredential(workspace, "key-" + UUID.randomUUID()), "agent-1", "corr-1");

    @BeforeAll
    static void infrastructure() {
        bootstrap = SharedTestInfra.kafka().bootstrapServers();
        TopicProvisioner.ensureTopics(bootstrap, new TopicProvisioner.Layout(6, 4, (short) 1, 1));
        jdbc = JdbcClient.create(ReadModelDatabase.create());
    }

    @AfterEach
    void stop() {
        watches.forEach(McpTaskWatch::destroy);
        readers.forEach(LiveEvents::stop);
    }

    private static McpTaskProperties properties(McpTaskProperties.Watch watch, int maxWatchedPerKey) {
        return new McpTaskProperties(Duration.ofSeconds(5), Duration.ofSeconds(50), RETENTION, Duration.ofMillis(300),
                watch, Duration.ofMillis(100), 2000, maxWatchedPerKey, 50, 524288);
    }

    /** A replica's watch with its own reader of the events topic. */
    private McpTaskWatch watch(McpTaskProperties properties) {
        LiveEvents reader = new LiveEvents(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100));
        reader.start();
        readers.add(reader);
        // the watch reads approvals only: the ingress's own tables are not used here
        McpTaskWatch watch = new McpTaskWatch(new McpTaskRecords(jdbc, null), properties, reader);
        watches.add(watch);
        return watch;
    }

    private McpTaskWatch watch() {
        return watch(properties(McpTaskProperties.Watch.EVENTS, 50));
    }

    // ---- the read model, as the projector writes it ----

    private UUID approval(String keyHash, String status, Instant updatedAt) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                        insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                            agent_id, call_digest, status, created_at, expires_at, updated_at, held_call_kind, requested_by_key_hash)
                        values (:id, :ws, :audit, 'corr-1', 'mcp', 'delete_repo', 'high', 'agent-1', 'digest', :status,
                            :created, :expires, :updated, 'mcp_tool_call', :key)""")
                .param("id", id).param("ws", workspace).param("audit", UUID.randomUUID()).param("status", status)
                .param("created", utc(updatedAt.minusSeconds(60))).param("expires", utc(updatedAt.plus(Duration.ofDays(1))))
                .param("updated", utc(updatedAt)).param("key", keyHash).update();
        return id;
    }

    private void projected(UUID approvalId, String status, Instant at, String resultJson) {
        jdbc.sql("""
                        update approval_requests set status = :status, updated_at = :at, reviewed_by = 'r1',
                            execution_result = cast(:result as jsonb) where id = :id""")
                .param("status", status).param("at", utc(at)).param("result", resultJson).param("id", approvalId).update();
    }

    /** The task as a look-up through the decision stream shows it: the row's approval, in {@code status}. */
    private static McpTask working(UUID approvalId, String status) {
        ApprovalFacts row = new McpTaskRecords(jdbc, null).approvals(List.of(approvalId)).get(0).facts();
        return McpTask.ofApproval(new ApprovalFacts(row.approvalId(), status, row.createdAt(), row.updatedAt(),
                row.expiresAt(), row.reviewedBy(), null, null, null, row.correlationId(), row.auditLogId(), null, true),
                Instant.now(), RETENTION);
    }

    // ---- the log, as the decision stream writes it ----

    private void published(DomainEvent event, Instant occurredAt) throws Exception {
        EventEnvelope envelope = new EventEnvelope(EventEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                workspace.toString(), UUID.randomUUID().toString(), "corr-1", occurredAt, Actor.system("test"), 9, 1, event);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.EVENTS.name(), workspace.toString(),
                    Topics.EVENTS.valueSerde().serializer().serialize(Topics.EVENTS.name(), envelope))).get();
        }
    }

    private static ApprovedCallExecuted executed(UUID approvalId, Instant at) {
        return new ApprovedCallExecuted(approvalId.toString(), "executor-1", null, at);
    }

    /** The watch's reader is positioned and what it read at its start is settled: from now on only events wake it. */
    private void listening() {
        await().atMost(Duration.ofSeconds(20)).until(() -> readers.stream()
                .allMatch(reader -> reader.state(Duration.ofSeconds(10)) == LiveEvents.State.LIVE));
        sleep(Duration.ofMillis(600));
    }

    private static OffsetDateTime utc(Instant at) {
        return OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the tests ----

    @Test
    void aWaitingResultIsAnsweredOnceTheExecutedEventIsInTheLogAndItsRowShowsIt() throws Exception {
        UUID id = approval(caller.key().keyHash(), "executing", Instant.now().minusSeconds(5));
        McpTaskWatch watch = watch();
        CompletableFuture<McpTask> answered = watch.awaitEnd(caller, id, Duration.ofSeconds(30),
                Mono.just(working(id, "executing"))).toFuture();
        listening();

        Instant executedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        published(executed(id, executedAt), executedAt);
        // the event is in the log, the projector has not written it: the row still says executing, nothing is answered
        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).until(() -> !answered.isDone());

        projected(id, "executed", executedAt, "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}],\"isError\":false}");
        McpTask task = answered.get(3, TimeUnit.SECONDS);
        assertThat(task.state()).isEqualTo(McpTask.State.RAN);
        assertThat(task.result().at("/content/0/text").asString()).as("the result as the read model stores it").isEqualTo("done");
        await().atMost(Duration.ofSeconds(2)).until(() -> watch.size() == 0);
    }

    @Test
    void nothingIsReadWithoutAnEventAndEveryReplicaIsWokenByIt() throws Exception {
        UUID id = approval(caller.key().keyHash(), "executing", Instant.now().minusSeconds(5));
        McpTaskWatch first = watch();
        McpTaskWatch second = watch();
        CompletableFuture<McpTask> onFirst = first.awaitEnd(caller, id, Duration.ofSeconds(30),
                Mono.just(working(id, "executing"))).toFuture();
        CompletableFuture<McpTask> onSecond = second.awaitEnd(caller, id, Duration.ofSeconds(30),
                Mono.just(working(id, "executing"))).toFuture();
        listening();

        Instant executedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        projected(id, "executed", executedAt, "{\"content\":[],\"isError\":false}");
        // the row says executed, but no event said so: the watch does not poll the table
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !onFirst.isDone() && !onSecond.isDone());

        published(executed(id, executedAt), executedAt);
        assertThat(onFirst.get(5, TimeUnit.SECONDS).state()).isEqualTo(McpTask.State.RAN);
        assertThat(onSecond.get(5, TimeUnit.SECONDS).state()).as("no consumer group: both replicas")
                .isEqualTo(McpTask.State.RAN);
    }

    @Test
    void anEndWrittenBeforeTheReaderWasPositionedIsReadWhenItIs() {
        UUID id = approval(caller.key().keyHash(), "executed", Instant.now().minusSeconds(1));
        projected(id, "executed", Instant.now().minusSeconds(1), "{\"content\":[],\"isError\":false}");
        McpTaskWatch watch = watch();
        // the look-up saw it running just before it ended; its event was written before the reader was positioned
        McpTask task = watch.awaitEnd(caller, id, Duration.ofSeconds(30), Mono.just(working(id, "executing")))
                .block(Duration.ofSeconds(20));
        assertThat(task.state()).isEqualTo(McpTask.State.RAN);
    }

    @Test
    void anotherKeysTaskIsNeverAnsweredAndTheWaitEndsAtItsDeadlineWithTheTaskStillWorking() throws Exception {
        UUID id = approval("another-key", "executing", Instant.now().minusSeconds(5));
        McpTaskWatch watch = watch();
        CompletableFuture<McpTask> answered = watch.awaitEnd(caller, id, Duration.ofSeconds(3),
                Mono.just(working(id, "executing"))).toFuture();
        listening();
        Instant executedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        projected(id, "executed", executedAt, "{\"content\":[],\"isError\":false}");
        published(executed(id, executedAt), executedAt);

        McpTask last = answered.get(10, TimeUnit.SECONDS);
        assertThat(last.ended()).isFalse();
        await().atMost(Duration.ofSeconds(2)).until(() -> watch.size() == 0);
    }

    @Test
    void aKeyWaitsOnAtMostItsShareOfTasksButAnEndedTaskIsAnsweredWithoutRoom() {
        McpTaskWatch watch = watch(properties(McpTaskProperties.Watch.EVENTS, 1));
        UUID first = approval(caller.key().keyHash(), "pending", Instant.now());
        UUID second = approval(caller.key().keyHash(), "pending", Instant.now());
        watch.awaitEnd(caller, first, Duration.ofSeconds(30), Mono.just(working(first, "pending"))).subscribe();
        await().atMost(Duration.ofSeconds(2)).until(() -> watch.size() == 1);

        assertThatThrownBy(() -> watch.awaitEnd(caller, second, Duration.ofSeconds(30), Mono.just(working(second, "pending")))
                .block(Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(JsonRpcError.class, refused -> assertThat(refused.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR));

        McpTask ended = McpTask.ofAllowedCall(second.toString(), Instant.now(), RETENTION, JsonNodeFactory.instance.objectNode());
        assertThat(watch.awaitEnd(caller, second, Duration.ofSeconds(30), Mono.just(ended)).block(Duration.ofSeconds(5)))
                .isSameAs(ended);
    }

    @Test
    void aFollowerIsToldOfEachStepOnceItsRowShowsIt() throws Exception {
        UUID id = approval(caller.key().keyHash(), "pending", Instant.now().minusSeconds(5));
        List<JsonNode> notes = new CopyOnWriteArrayList<>();
        McpClientSession session = new McpClientSession("s1", null, notes::add);
        McpTaskWatch watch = watch();
        watch.follow(caller, session, working(id, "pending"));
        listening();

        Instant reviewedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        projected(id, "approved", reviewedAt, null);
        published(new ApprovalReviewed(id.toString(), ReviewVerdict.APPROVE, "r1", null, reviewedAt, Tool.MCP, "delete_repo",
                "digest", HeldCallKind.MCP_TOOL_CALL), reviewedAt);
        await().atMost(Duration.ofSeconds(5)).until(() -> notes.size() == 1);
        assertThat(notes.get(0).path("method").asString()).isEqualTo("notifications/tasks/status");
        assertThat(notes.get(0).at("/params/status").asString()).isEqualTo("working");
        assertThat(notes.get(0).at("/params/statusMessage").asString()).startsWith("Approved by r1");

        Instant executedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        projected(id, "executed", executedAt, "{\"content\":[],\"isError\":false}");
        published(executed(id, executedAt), executedAt);
        await().atMost(Duration.ofSeconds(5)).until(() -> notes.size() == 2);
        assertThat(notes.get(1).at("/params/status").asString()).isEqualTo("completed");
        await().atMost(Duration.ofSeconds(2)).until(() -> watch.size() == 0);
    }

    @Test
    void pollingReadsTheReadModelEveryWatchIntervalWithoutEvents() {
        UUID id = approval(caller.key().keyHash(), "executing", Instant.now().minusSeconds(5));
        McpTaskWatch watch = watch(properties(McpTaskProperties.Watch.POLL, 50));
        CompletableFuture<McpTask> answered = watch.awaitEnd(caller, id, Duration.ofSeconds(30),
                Mono.just(working(id, "executing"))).toFuture();
        projected(id, "executed", Instant.now(), "{\"content\":[],\"isError\":false}");
        await().atMost(Duration.ofSeconds(3)).until(answered::isDone);
        assertThat(answered.join().state()).isEqualTo(McpTask.State.RAN);
    }
}
