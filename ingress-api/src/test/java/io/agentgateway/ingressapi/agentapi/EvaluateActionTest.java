package io.agentgateway.ingressapi.agentapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class EvaluateActionTest {
    private static final String PATH = "/functions/v1/evaluate-action";
    private static final String VALID_BODY = """
            {"tool":"mcp","action":"files.delete","riskLevel":"high","agentId":"agent-7"}""";

    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private String workspaceId;
    private String key;

    @BeforeEach
    void newWorkspace() {
        UUID workspace = UUID.randomUUID();
        workspaceId = workspace.toString();
        key = ApiKeys.generate(workspace);
    }

    private TestHttp.Request evaluate(String body) {
        return ingress.http.post(PATH).bearer(key).body(body);
    }

    @Test
    void anAllowedActionReturnsTheFullResultWithNullsPresent() {
        responder.answer(workspaceId, envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(Decision.ALLOW,
                "workspace default for medium risk", null, null, "11111111-1111-1111-1111-111111111111", RiskLevel.HIGH,
                RiskClassification.CALLER_SUPPLIED)));

        TestHttp.Response response = evaluate(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(200);
        JsonNode json = response.json();
        assertThat(json.propertyNames()).containsExactlyInAnyOrder("ok", "decision", "reason", "matchedPolicyId",
                "approvalRequestId", "auditLogId", "correlationId", "risk_classification", "riskLevel");
        assertThat(json.get("ok").booleanValue()).isTrue();
        assertThat(json.get("decision").asString()).isEqualTo("allow");
        assertThat(json.get("reason").asString()).isEqualTo("workspace default for medium risk");
        assertThat(json.get("matchedPolicyId").isNull()).isTrue();
        assertThat(json.get("approvalRequestId").isNull()).isTrue();
        assertThat(json.get("auditLogId").asString()).isEqualTo("11111111-1111-1111-1111-111111111111");
        assertThat(json.get("risk_classification").asString()).isEqualTo("caller_supplied");
        assertThat(json.get("riskLevel").asString()).isEqualTo("high");
        assertThat(json.get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
    }

    @Test
    void theCommandCarriesTheKeyHashTheScopeAndTheFieldsButNeverTheKey() {
        responder.answer(workspaceId, envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(Decision.REQUIRE_APPROVAL,
                "policy", "22222222-2222-2222-2222-222222222222", "33333333-3333-3333-3333-333333333333",
                "44444444-4444-4444-4444-444444444444", RiskLevel.HIGH, RiskClassification.SERVER_CLASSIFIED)));
        String correlationId = UUID.randomUUID().toString();

        TestHttp.Response response = ingress.http.post(PATH).bearer(key).header("X-Agent-Id", "header-agent")
                .header("X-Correlation-Id", correlationId)
                .body("""
                        {"tool":"code_host","action":"pull_request.merge","riskLevel":"low","agentName":"Builder",
                         "resourceType":"repo","resourceId":"acme/api","requestedBy":"alice","payload":{"pr":42}}""")
                .send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("decision").asString()).isEqualTo("require_approval");
        assertThat(response.json().get("matchedPolicyId").asString()).isEqualTo("22222222-2222-2222-2222-222222222222");
        assertThat(response.json().get("approvalRequestId").asString()).isEqualTo("33333333-3333-3333-3333-333333333333");
        assertThat(response.json().get("risk_classification").asString()).isEqualTo("server_classified");
        assertThat(response.json().get("correlationId").asString()).isEqualTo(correlationId);
        assertThat(response.headers().first("X-Correlation-Id")).isEqualTo(correlationId);

        CommandEnvelope envelope = responder.received(workspaceId).get(0);
        assertThat(envelope.correlationId()).isEqualTo(correlationId);
        assertThat(envelope.replyPartition()).isEqualTo(ingress.context.getBean(CommandGateway.class).replyPartition());
        assertThat(envelope.acceptedAt()).isNotNull();
        assertThat(UUID.fromString(envelope.commandId())).isNotNull();
        assertThat(envelope.actor().kind()).isEqualTo(ActorKind.API_KEY);
        assertThat(envelope.actor().apiKeyHash()).isEqualTo(ApiKeys.hash(key));
        assertThat(envelope.actor().agentId()).isEqualTo("header-agent");
        EvaluateAction command = (EvaluateAction) envelope.command();
        assertThat(command.tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(command.action()).isEqualTo("pull_request.merge");
        assertThat(command.riskLevel()).isEqualTo(RiskLevel.LOW);
        assertThat(command.agentId()).isEqualTo("header-agent");
        assertThat(command.agentName()).isEqualTo("Builder");
        assertThat(command.resourceType()).isEqualTo("repo");
        assertThat(command.resourceId()).isEqualTo("acme/api");
        assertThat(command.requestedBy()).isEqualTo("alice");
        assertThat(command.payload().get("pr").intValue()).isEqualTo(42);
        assertThat(command.source()).isEqualTo(ActionSource.EVALUATE);
        assertThat(command.requiredScope()).isEqualTo(Scope.EVALUATE);
        assertThat(envelope.toString()).doesNotContain(key);
    }

    @Test
    void theBodysAgentIdWinsOverTheHeader() {
        responder.answer(workspaceId, envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(Decision.BLOCK,
                "kill switch", null, null, UUID.randomUUID().toString(), RiskLevel.HIGH, RiskClassification.CALLER_SUPPLIED)));

        TestHttp.Response response = ingress.http.post(PATH).bearer(key).header("X-Agent-Id", "header-agent").body(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("decision").asString()).isEqualTo("block");
        assertThat(((EvaluateAction) responder.received(workspaceId).get(0).command()).agentId()).isEqualTo("agent-7");
    }

    @Test
    void anUnauthorizedReplyIsA401() {
        responder.answer(workspaceId, envelope -> DecisionResponder.status(envelope, ReplyStatus.UNAUTHORIZED, "key revoked"));

        TestHttp.Response response = evaluate(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("ok").booleanValue()).isFalse();
        assertThat(response.error()).isEqualTo("Invalid or expired API key");
    }

    @Test
    void anOkReplyWithoutADecisionIsAnInternalErrorNeverAnAllow() {
        responder.answer(workspaceId, DecisionResponder::ok);

        TestHttp.Response response = evaluate(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.error()).isEqualTo("Internal error");
        assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
        assertThat(response.text()).doesNotContain("Exception").doesNotContain("at io.");
    }

    @Test
    void missingAuthorizationIs401AtOnce() {
        TestHttp.Response response = ingress.http.post(PATH).body(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.error()).isEqualTo("Invalid or expired API key");
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Basic dXNlcjpwdw==", "Bearer", "Bearer not-a-key", "Bearer agk_short", "Token agk_x"})
    void malformedAuthorizationIs401AtOnceEvenWithABadBody(String header) {
        TestHttp.Response response = ingress.http.post(PATH).header("Authorization", header).body("[1,2]").send();

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.error()).isEqualTo("Invalid or expired API key");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            [1,2]                                                              | Request body must be a JSON object
            not json                                                           | Request body must be a JSON object
            "a string"                                                         | Request body must be a JSON object
            {"tool":"mcp","action":"a.b","riskLevel":"low"} trailing           | Request body must be a JSON object
            {"tool":"mcp","tool":"chat","action":"a.b","riskLevel":"low"}      | Request body must be a JSON object
            {"action":"a.b","riskLevel":"low"}                                 | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"tool":"github","action":"a.b","riskLevel":"low"}                 | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"tool":7,"action":"a.b","riskLevel":"low"}                        | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"tool":"mcp","action":"a.b"}                                      | riskLevel must be one of: low, medium, high, critical
            {"tool":"mcp","action":"a.b","riskLevel":"HIGH"}                   | riskLevel must be one of: low, medium, high, critical
            {"tool":"mcp","riskLevel":"low","action":""}                       | action must be a non-empty string
            {"tool":"mcp","riskLevel":"low"}                                   | action must be a non-empty string
            {"tool":"mcp","riskLevel":"low","action":42}                       | action must be a non-empty string
            {"tool":"mcp","riskLevel":"low","action":"   "}                    | action must be a non-empty string
            {"tool":"mcp","riskLevel":"low","action":"a.b","agentId":5}        | agentId must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","agentName":true}   | agentName must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","resourceType":[]}  | resourceType must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","resourceId":{}}    | resourceId must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","requestedBy":1.5}  | requestedBy must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","payload":"x"}      | payload must be an object
            {"tool":"mcp","riskLevel":"low","action":"a.b","payload":[1]}      | payload must be an object
            {"tool":"chat","riskLevel":"nope","action":""}                     | riskLevel must be one of: low, medium, high, critical
            """)
    void invalidBodiesAre400WithTheSpecifiedText(String body, String error) {
        TestHttp.Response response = evaluate(body).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("ok").booleanValue()).isFalse();
        assertThat(response.error()).isEqualTo(error);
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @Test
    void anEmptyBodyIs400() {
        TestHttp.Response response = ingress.http.post(PATH).bearer(key).header("Content-Type", "application/json").send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo("Request body must be a JSON object");
    }

    @Test
    void nullOptionalFieldsCountAsAbsent() {
        responder.answer(workspaceId, envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(Decision.ALLOW,
                "ok", null, null, UUID.randomUUID().toString(), RiskLevel.LOW, RiskClassification.CALLER_SUPPLIED)));

        TestHttp.Response response = evaluate("""
                {"tool":"docs","action":"page.read","riskLevel":"low","agentId":null,"payload":null}""").send();

        assertThat(response.status()).isEqualTo(200);
    }

    @Test
    void aBodyOverTheLimitIs413() {
        // the test ingress allows 4096 bytes
        String big = "{\"tool\":\"mcp\",\"action\":\"a.b\",\"riskLevel\":\"low\",\"payload\":{\"x\":\"" + "y".repeat(5000) + "\"}}";

        TestHttp.Response response = evaluate(big).send();

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.error()).isEqualTo("Request body too large");
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @Test
    void aNonJsonContentTypeIs415() {
        TestHttp.Response response = ingress.http.post(PATH).bearer(key).header("Content-Type", "text/plain").body(VALID_BODY).send();

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.json().get("ok").booleanValue()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "PUT", "DELETE", "PATCH"})
    void otherMethodsAre405WithAnAllowHeader(String method) {
        TestHttp.Response response = ingress.http.request(method, PATH).bearer(key).send();

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.headers().first("Allow")).isEqualTo("POST");
        assertThat(response.error()).isEqualTo("Method not allowed");
    }

    @Test
    void everyEvaluationIsTimed() {
        responder.answer(workspaceId, envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(Decision.ALLOW,
                "ok", null, null, UUID.randomUUID().toString(), RiskLevel.LOW, RiskClassification.CALLER_SUPPLIED)));
        MeterRegistry registry = ingress.context.getBean(MeterRegistry.class);
        long before = allowCount(registry);

        evaluate(VALID_BODY).send();

        assertThat(allowCount(registry)).isEqualTo(before + 1);
    }

    private static long allowCount(MeterRegistry registry) {
        // the evaluation timer's documented name (agent-api's README)
        var timer = registry.find("gateway.ingress.evaluate").tag("outcome", "allow").timer();
        return timer == null ? 0 : timer.count();
    }
}
