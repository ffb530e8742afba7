package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.PolicyUpserted;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * POST /admin/v1/workspaces/{id}/backtests on a running ingress: the workspace's history is written to
 * the real events topic as the decision stream would write it; access, validation, JSON and text.
 */
class BacktestHttpTest {
    private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");
    private static final RunningIngress ingress = SharedIngress.ingress();
    private UUID workspace;
    private String path;
    private String owner;
    private String blockedDocsAuditId;

    @BeforeEach
    void workspaceWithHistory() throws Exception {
        workspace = ingress.rows.workspace("backtests");
        path = "/admin/v1/workspaces/" + workspace + "/backtests";
        ingress.rows.member(workspace, "owner-" + workspace, "owner");
        owner = TestTokens.user("owner-" + workspace);

        Policy blockDocs = new Policy(UUID.randomUUID().toString(), "no docs", 10, true, Decision.BLOCK,
                new PolicyMatch(Set.of(Tool.DOCS), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of()), null);
        ActionEvaluated blocked = evaluation(Tool.DOCS, "page.read", Decision.BLOCK, "Matched policy \"no docs\": block", blockDocs);
        blockedDocsAuditId = blocked.auditLogId();
        try (KafkaProducer<String, EventEnvelope> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfra.kafka().bootstrapServers()),
                Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer())) {
            for (EventEnvelope event : List.of(
                    envelope(1, new PolicyUpserted(blockDocs), AT),
                    envelope(1, blocked, AT.plusSeconds(1)),
                    envelope(1, evaluation(Tool.CHAT, "message.send", Decision.ALLOW,
                            "No policy matched; workspace default for low risk is allow", null), AT.plusSeconds(2)))) {
                producer.send(new ProducerRecord<>(Topics.EVENTS.name(), workspace.toString(), event)).get();
            }
        }
    }

    @Test
    void anOwnerGetsTheReportAsJson() {
        TestHttp.Response response = post(owner, "{\"policies\":[],\"from\":\"2026-03-01T00:00:00Z\"}");

        assertThat(response.status()).as(response.text()).isEqualTo(200);
        JsonNode report = response.json();
        assertThat(report.get("ok").booleanValue()).isTrue();
        assertThat(report.get("workspaceId").asString()).isEqualTo(workspace.toString());
        assertThat(report.get("totals").toString()).isEqualTo("{\"evaluated\":2,\"changed\":1,\"unchanged\":1,\"mismatches\":0}");
        assertThat(report.get("transitions").toString()).isEqualTo("[{\"from\":\"block\",\"to\":\"allow\",\"count\":1}]");
        assertThat(report.get("byTool").get(0).get("tool").asString()).isEqualTo("docs");
        assertThat(report.get("byTool").get(0).get("exampleAuditIds").get(0).asString()).isEqualTo(blockedDocsAuditId);
        assertThat(report.get("byAction").get(0).get("action").asString()).isEqualTo("page.read");
        assertThat(report.get("byAgent").get(0).get("agentId").asString()).isEqualTo("agent-1");
        assertThat(report.get("mismatches")).isEmpty();
        assertThat(report.get("history").get("topic").asString()).isEqualTo(Topics.EVENTS.name());
        assertThat(report.get("history").get("workspaceEvents").asLong()).isEqualTo(3);
    }

    @Test
    void theSamePoliciesChangeNothingAndTheRangeIsHonoured() {
        String keepBlocking = "{\"policies\":[{\"name\":\"docs off\",\"priority\":1,\"decision\":\"block\",\"match\":{\"tools\":[\"docs\"]}}],"
                + "\"from\":\"2026-03-01T10:00:00Z\",\"to\":\"2026-03-01T10:00:02Z\"}";

        JsonNode report = post(owner, keepBlocking).json();

        assertThat(report.get("totals").toString()).isEqualTo("{\"evaluated\":1,\"changed\":0,\"unchanged\":1,\"mismatches\":0}");
        assertThat(report.get("candidatePolicies").asInt()).isEqualTo(1);
    }

    @Test
    void anAcceptOfTextPlainGetsTheTable() {
        TestHttp.Response response = ingress.http.post(path).bearer(owner).header("Accept", "text/plain")
                .body("{\"policies\":[],\"from\":\"2026-03-01T00:00:00Z\"}").send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers().first("Content-Type")).startsWith("text/plain");
        assertThat(response.text()).contains("Back-test of workspace " + workspace)
                .contains("Evaluated 2   would change 1   unchanged 1   reproduction mismatches 0")
                .contains("block  allow      1")
                .contains(blockedDocsAuditId);
    }

    @Test
    void onlyAdminsAndOwnersMayRunOne() {
        ingress.rows.member(workspace, "member-1", "member");
        String body = "{\"policies\":[],\"from\":\"2026-03-01T00:00:00Z\"}";

        assertThat(post(null, body).status()).isEqualTo(401);
        for (String user : List.of("member-1", "stranger")) {
            TestHttp.Response response = post(TestTokens.user(user), body);
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.error()).isEqualTo("Admin or owner role required");
        }
        ingress.rows.member(workspace, "admin-1", "admin");
        assertThat(post(TestTokens.user("admin-1"), body).status()).isEqualTo(200);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[]| Request body must be a JSON object",
            "{\"from\":\"2026-03-01T00:00:00Z\"}| policies is required (an array of policy bodies)",
            "{\"policies\":{},\"from\":\"2026-03-01T00:00:00Z\"}| policies must be an array of policy bodies",
            "{\"policies\":[1],\"from\":\"2026-03-01T00:00:00Z\"}| policies[0] must be an object",
            "{\"policies\":[{\"name\":\"x\",\"priority\":1,\"decision\":\"maybe\"}],\"from\":\"2026-03-01T00:00:00Z\"}| policies[0]: decision must be one of: allow, block, require_approval",
            "{\"policies\":[{\"name\":\"x\",\"priority\":1,\"decision\":\"block\",\"match\":{\"tool\":[\"docs\"]}}],\"from\":\"2026-03-01T00:00:00Z\"}| policies[0]: unknown field: match.tool",
            "{\"policies\":[{\"name\":\"\",\"priority\":1,\"decision\":\"block\"}],\"from\":\"2026-03-01T00:00:00Z\"}| policies[0]: name must be a non-empty string",
            "{\"policies\":[{\"id\":\"nope\",\"name\":\"x\",\"priority\":1,\"decision\":\"block\"}],\"from\":\"2026-03-01T00:00:00Z\"}| policies[0]: id must be a uuid",
            "{\"policies\":[{\"id\":\"00000000-0000-0000-0000-000000000002\",\"name\":\"x\",\"priority\":1,\"decision\":\"block\"},{\"name\":\"y\",\"priority\":1,\"decision\":\"block\"}],\"from\":\"2026-03-01T00:00:00Z\"}| policies[1]: id repeats the id of policies[0]",
            "{\"policies\":[]}| from is required (an ISO-8601 timestamp)",
            "{\"policies\":[],\"from\":\"yesterday\"}| from must be an ISO-8601 timestamp",
            "{\"policies\":[],\"from\":\"2026-03-02T00:00:00Z\",\"to\":\"2026-03-01T00:00:00Z\"}| from must be before to",
            "{\"policies\":[],\"from\":\"2026-03-01T00:00:00Z\",\"until\":\"2026-03-02T00:00:00Z\"}| unknown field: until",
    })
    void aBadRequestIs400WithTheRuleItBreaks(String body, String error) {
        TestHttp.Response response = post(owner, body);

        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error.strip());
    }

    @Test
    void aPathThatIsNotAUuidIs400AndOtherMethodsAre405() {
        assertThat(ingress.http.post("/admin/v1/workspaces/nope/backtests").bearer(owner).body("{}").send().error())
                .isEqualTo("workspaceId must be a uuid");
        TestHttp.Response get = ingress.http.get(path).bearer(owner).send();
        assertThat(get.status()).isEqualTo(405);
        assertThat(get.headers().first("Allow")).isEqualTo("POST");
    }

    @Test
    void anEventLogThatCannotBeReachedIs503() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(null, 0);
        RunningIngress isolated;
        try {
            isolated = RunningIngress.start(broker.bootstrapServers(), TestDatabase.create(),
                    Map.of("gateway.backtest.connect-timeout", "PT1S"), true);
        } finally {
            broker.close();
        }
        try {
            UUID ws = isolated.rows.workspace("offline");
            isolated.rows.member(ws, "owner-offline", "owner");
            TestHttp.Response response = isolated.http.post("/admin/v1/workspaces/" + ws + "/backtests")
                    .bearer(TestTokens.user("owner-offline")).body("{\"policies\":[],\"from\":\"2026-03-01T00:00:00Z\"}").send();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.error()).isEqualTo("Event log unavailable");
            assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
        } finally {
            isolated.close();
        }
    }

    private TestHttp.Response post(String token, String body) {
        TestHttp.Request request = ingress.http.post(path).body(body);
        return (token == null ? request : request.bearer(token)).send();
    }

    private EventEnvelope envelope(long version, DomainEvent event, Instant at) {
        String commandId = UUID.randomUUID().toString();
        return new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(commandId, 0), workspace.toString(), commandId,
                UUID.randomUUID().toString(), at, Actor.user("owner", "o@example.com"), version, 1, event);
    }

    private static ActionEvaluated evaluation(Tool tool, String action, Decision decision, String reason, Policy matched) {
        return new ActionEvaluated(UUID.randomUUID().toString(), tool, action, RiskLevel.LOW, RiskLevel.LOW,
                RiskClassification.CALLER_SUPPLIED, false, decision, reason, matched == null ? null : matched.id(),
                matched == null ? null : matched.name(), null, "agent-1", null, null, null, null, ActionSource.EVALUATE, "{}", false, 2);
    }
}
