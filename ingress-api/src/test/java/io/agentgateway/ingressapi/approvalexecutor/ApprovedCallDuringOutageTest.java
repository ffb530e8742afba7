package io.agentgateway.ingressapi.approvalexecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.agentgateway.embeddedinfra.RestartablePostgres;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.secret.SecretBox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An approval arrives at the executor while a part it needs before the claim is away: PostgreSQL, where its held
 * call is, or the decision stream, which grants the claim. Before, the executor logged an ERROR, committed the event
 * and left the approval approved (or, when the unanswered claim had been granted, executing) with its call never
 * run. Now the event is delivered again until both answer, and then the call is claimed and sent, once. The decision
 * stream is the ingress tests' stand-in, a real Kafka peer; the upstream a real HTTP server.
 */
class ApprovedCallDuringOutageTest {
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final String marker = UUID.randomUUID().toString();
    private HttpServer upstream;

    @BeforeEach
    void startUpstream() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            byte[] body = "{\"done\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
    }

    @AfterEach
    void stopUpstream() {
        upstream.stop(0);
    }

    @Test
    void anApprovalThatArrivesWhileTheReadModelIsDownRunsOnceItIsBack() throws Exception {
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        try (RestartablePostgres postgres = RestartablePostgres.start();
             DecisionResponder stream = new DecisionResponder(bootstrap);
             RunningIngress ingress = RunningIngress.start(bootstrap, TestDatabase.create(postgres.server()),
                     executorSettings(Map.of()), true)) {
            UUID workspace = ingress.rows.workspace("executor outage");
            ApprovalReviewed reviewed = approvedHeldCall(ingress, workspace);
            stream.answerWhen(command -> command.command() instanceof ClaimApprovedCall
                    || command.command() instanceof RecordCallExecution, DecisionResponder::ok);

            postgres.stop();
            publish(bootstrap, workspace, reviewed);
            // the executor reads the event at once (a quarter-second fetch) and finds the read model away, again and
            // again: each attempt after the first waits out the pool's 2 s, and nothing else in this ingress reads it
            await().atMost(Duration.ofSeconds(60)).until(() -> poolTimeouts(ingress) >= 3);
            assertThat(stream.received(workspace.toString())).as("nothing is claimed while the held call cannot be read")
                    .isEmpty();
            assertThat(received).isEmpty();

            postgres.restart();
            assertRunOnce(stream, workspace);
            assertThat(stream.received(workspace.toString())).extracting(c -> c.command().getClass().getSimpleName())
                    .containsExactly("ClaimApprovedCall", "RecordCallExecution");
        }
    }

    /**
     * The decision stream takes the claim but its answers do not come back (it is failing over): the first claim was
     * granted, so the approval is executing in the read model, claimed by this executor, which never heard so. Asked
     * again under the same command id, the claim gets its stored grant back (the stand-in answers as the stream's
     * dedupe does: the grant to that id, a refusal to any other), and the call runs once.
     */
    @Test
    void aClaimThatGoesUnansweredIsAskedAgainUnderItsIdAndRunsOnce() throws Exception {
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        try (DecisionResponder stream = new DecisionResponder(bootstrap);
             RunningIngress ingress = RunningIngress.start(bootstrap, TestDatabase.create(),
                     executorSettings(Map.of("gateway.executor.command-attempts", "1")), true)) {
            UUID workspace = ingress.rows.workspace("executor claim unanswered");
            ApprovalReviewed reviewed = approvedHeldCall(ingress, workspace);
            AtomicReference<String> granted = new AtomicReference<>();
            AtomicBoolean answering = new AtomicBoolean();
            stream.answerWhen(command -> command.command() instanceof ClaimApprovedCall, claim -> {
                if (granted.compareAndSet(null, claim.commandId())) {
                    // what the projector shows once the stream decided the first claim
                    ingress.context.getBean(JdbcClient.class).sql("update approval_requests set status = 'executing' where id = :id")
                            .param("id", UUID.fromString(reviewed.approvalId())).update();
                }
                if (!answering.get()) {
                    return null;
                }
                return claim.commandId().equals(granted.get()) ? DecisionResponder.ok(claim)
                        : DecisionResponder.status(claim, ReplyStatus.CONFLICT, "Approved call was already claimed");
            });
            // the outcome's first copy goes unanswered too: it is offered again, under its id, not given up
            List<String> records = new CopyOnWriteArrayList<>();
            stream.answerWhen(command -> command.command() instanceof RecordCallExecution, record -> {
                records.add(record.commandId());
                return records.size() == 1 ? null : DecisionResponder.ok(record);
            });

            publish(bootstrap, workspace, reviewed);
            // each try waits out the 3 s reply timeout; the event comes again after a quarter second, then half a second
            await().atMost(Duration.ofSeconds(60)).until(() -> claims(stream, workspace).size() >= 3);
            assertThat(received).as("nothing runs without a grant").isEmpty();

            answering.set(true);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(received).containsExactly("POST /internal/deployments/" + marker));
            await().atMost(Duration.ofSeconds(30)).until(() -> records.size() >= 2);
            assertThat(records).as("one outcome, offered again").containsOnly(records.get(0));
            assertThat(claims(stream, workspace)).extracting(CommandEnvelope::commandId).as("one claim, asked again")
                    .containsOnly(granted.get());
            assertThat(received).as("sent once").hasSize(1);
        }
    }

    private Map<String, String> executorSettings(Map<String, String> more) {
        Map<String, String> settings = new java.util.HashMap<>(more);
        settings.put("gateway.executor.group-id", "executor-outage-" + UUID.randomUUID());
        // a new group reads the events topic from the start: other tests' approvals are in no read model here
        settings.put("gateway.executor.held-call-wait", "PT1S");
        settings.put("gateway.executor.http-upstreams.internal_api",
                "http://127.0.0.1:" + upstream.getAddress().getPort() + "/internal");
        return settings;
    }

    /** An approved approval in the read model holding a sealed POST to the upstream, and its review event. */
    private ApprovalReviewed approvedHeldCall(RunningIngress ingress, UUID workspace) {
        HeldHttpRequest call = new HeldHttpRequest("POST", "/deployments/" + marker, null,
                Map.of("content-type", List.of("application/json")), null);
        SealedHeldCall sealed = new HeldCallSeal(SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY))
                .seal(Tool.INTERNAL_API, "deploy.create", call);
        UUID approval = ingress.rows.approval(workspace, "approved", Instant.now().plus(Duration.ofHours(1)), null);
        ingress.context.getBean(JdbcClient.class).sql("""
                        update approval_requests set tool = 'internal_api', action = 'deploy.create',
                            held_call_kind = 'http_request', sealed_held_call = :sealed, call_digest = :digest
                        where id = :id""")
                .param("sealed", sealed.sealed()).param("digest", sealed.digest()).param("id", approval).update();
        return new ApprovalReviewed(approval.toString(), ReviewVerdict.APPROVE, "owner-1", null,
                Instant.now(), Tool.INTERNAL_API, "deploy.create", sealed.digest(), HeldCallKind.HTTP_REQUEST);
    }

    private static void publish(String bootstrap, UUID workspace, ApprovalReviewed reviewed) throws Exception {
        try (KafkaProducer<String, EventEnvelope> events = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer())) {
            events.send(new ProducerRecord<>(Topics.EVENTS.name(), workspace.toString(), new EventEnvelope(
                    EventEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), workspace.toString(),
                    UUID.randomUUID().toString(), UUID.randomUUID().toString(), Instant.now(), Actor.user("owner-1", null),
                    7, 1, reviewed))).get(10, TimeUnit.SECONDS);
        }
    }

    private void assertRunOnce(DecisionResponder stream, UUID workspace) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(received).containsExactly("POST /internal/deployments/" + marker));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(stream.received(workspace.toString())).filteredOn(c -> c.command() instanceof RecordCallExecution)
                        .hasSize(1));
        assertThat(received).as("sent once").hasSize(1);
    }

    private static List<CommandEnvelope> claims(DecisionResponder stream, UUID workspace) {
        return stream.received(workspace.toString()).stream().filter(c -> c.command() instanceof ClaimApprovedCall).toList();
    }

    private static double poolTimeouts(RunningIngress ingress) {
        return ingress.context.getBean(MeterRegistry.class).find("hikaricp.connections.timeout").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
