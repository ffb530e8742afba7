package io.agentgateway.ingress.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.agentgateway.embedded.RestartablePostgres;
import io.agentgateway.embedded.SharedTestInfra;
import io.agentgateway.ingress.support.DecisionResponder;
import io.agentgateway.ingress.support.RunningIngress;
import io.agentgateway.ingress.support.TestDatabase;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ClaimApprovedCall;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An approval arrives at the executor while PostgreSQL, where its held call is, cannot be reached. Before, the
 * executor logged an ERROR, committed the event and left the approval approved with its call never run. Now
 * nothing is claimed while the read model is away, the event is delivered again until it answers, and then the
 * call is claimed and sent, once. The decision stream is the ingress tests' stand-in, a real Kafka peer; the
 * upstream a real HTTP server.
 */
class ApprovedCallDuringOutageTest {

    @Test
    void anApprovalThatArrivesWhileTheReadModelIsDownRunsOnceItIsBack() throws Exception {
        String marker = UUID.randomUUID().toString();
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            byte[] body = "{\"done\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        try (RestartablePostgres postgres = RestartablePostgres.start();
             DecisionResponder stream = new DecisionResponder(bootstrap);
             RunningIngress ingress = RunningIngress.start(bootstrap, TestDatabase.create(postgres.server()), Map.of(
                     "gateway.executor.group-id", "executor-outage-" + UUID.randomUUID(),
                     "gateway.executor.http-upstreams.internal_api",
                     "http://127.0.0.1:" + upstream.getAddress().getPort() + "/internal"), true);
             KafkaProducer<String, EventEnvelope> events = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                     Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer())) {
            UUID workspace = ingress.rows.workspace("executor outage");
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
            stream.answerWhen(command -> command.command() instanceof ClaimApprovedCall
                    || command.command() instanceof RecordCallExecution, DecisionResponder::ok);

            postgres.stop();
            ApprovalReviewed reviewed = new ApprovalReviewed(approval.toString(), ReviewVerdict.APPROVE, "owner-1", null,
                    Instant.now(), Tool.INTERNAL_API, "deploy.create", sealed.digest(), HeldCallKind.HTTP_REQUEST);
            events.send(new ProducerRecord<>(Topics.EVENTS.name(), workspace.toString(), new EventEnvelope(
                    EventEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), workspace.toString(),
                    UUID.randomUUID().toString(), UUID.randomUUID().toString(), Instant.now(), Actor.user("owner-1", null),
                    7, 1, reviewed))).get(10, TimeUnit.SECONDS);
            // the executor reads the event at once (a quarter-second fetch) and finds the read model away, again and
            // again: each attempt after the first waits out the pool's 2 s, and nothing else in this ingress reads it
            await().atMost(Duration.ofSeconds(60)).until(() -> poolTimeouts(ingress) >= 3);
            assertThat(stream.received(workspace.toString())).as("nothing is claimed while the held call cannot be read")
                    .isEmpty();
            assertThat(received).isEmpty();

            postgres.restart();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(received).containsExactly("POST /internal/deployments/" + marker));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(stream.received(workspace.toString())).extracting(c -> c.command().getClass().getSimpleName())
                            .containsExactly("ClaimApprovedCall", "RecordCallExecution"));
        } finally {
            upstream.stop(0);
        }
    }

    private static double poolTimeouts(RunningIngress ingress) {
        return ingress.context.getBean(MeterRegistry.class).find("hikaricp.connections.timeout").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
