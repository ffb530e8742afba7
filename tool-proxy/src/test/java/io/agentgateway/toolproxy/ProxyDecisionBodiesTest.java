package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluationOutcome;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/** Blocked and held answers in each tool's error dialect, with the gateway's own fields beside. */
class ProxyDecisionBodiesTest {
    private static final EvaluationOutcome BLOCKED = new EvaluationOutcome(Decision.BLOCK, "Workspace kill switch is enabled",
            "pol-1", null, "audit-1", RiskLevel.CRITICAL, RiskClassification.SERVER_CLASSIFIED);
    private static final EvaluationOutcome HELD = new EvaluationOutcome(Decision.REQUIRE_APPROVAL,
            "No policy matched; workspace default for high risk is require_approval", null, "appr-1", "audit-2",
            RiskLevel.HIGH, RiskClassification.SERVER_CLASSIFIED);

    @Test
    void theCodeHostGetsItsMessageAndDocumentationUrlWithTheGatewaysFields() {
        JsonNode blocked = ProxyDecisionBodies.blocked(ProxyDialect.of(Tool.CODE_HOST), BLOCKED, "corr-1", "https://docs.example/gw");
        assertThat(blocked.get("message").asString()).isEqualTo("Blocked by the gateway: Workspace kill switch is enabled");
        assertThat(blocked.get("documentation_url").asString()).isEqualTo("https://docs.example/gw");
        assertThat(blocked.get("ok").booleanValue()).isFalse();
        assertThat(blocked.get("error").asString()).isEqualTo("Blocked by the gateway");
        assertThat(blocked.get("decision").asString()).isEqualTo("block");
        assertThat(blocked.get("reason").asString()).isEqualTo("Workspace kill switch is enabled");
        assertThat(blocked.get("auditLogId").asString()).isEqualTo("audit-1");
        assertThat(blocked.get("correlationId").asString()).isEqualTo("corr-1");
        assertThat(blocked.get("matchedPolicyId").asString()).isEqualTo("pol-1");
        assertThat(blocked.has("approvalRequestId")).isFalse();
        // no errors array: octokit would append it to the message
        assertThat(blocked.has("errors")).isFalse();
        // no documentation URL configured: none invented
        assertThat(ProxyDecisionBodies.blocked(ProxyDialect.REST, BLOCKED, "c", null).has("documentation_url")).isFalse();

        JsonNode held = ProxyDecisionBodies.held(ProxyDialect.of(Tool.CODE_HOST), HELD, "corr-2", "https://gw.example", null);
        assertThat(held.get("message").asString()).isEqualTo("Held for approval by the gateway: approval appr-1 waits for a reviewer"
                + " (No policy matched; workspace default for high risk is require_approval); the call has not run and runs once"
                + " if approved, do not retry it; its outcome: https://gw.example/functions/v1/mcp-gate/status/appr-1");
        assertThat(held.has("documentation_url")).isFalse();
        assertThat(held.get("ok").booleanValue()).isFalse();
        assertThat(held.get("decision").asString()).isEqualTo("require_approval");
        assertThat(held.get("approvalRequestId").asString()).isEqualTo("appr-1");
        assertThat(held.get("statusUrl").asString()).isEqualTo("/functions/v1/mcp-gate/status/appr-1");
        assertThat(held.get("auditLogId").asString()).isEqualTo("audit-2");
        assertThat(held.get("matchedPolicyId").isNull()).isTrue();
    }

    @Test
    void theIssueTrackerGetsGraphQlErrorsWhoseTypeTheLinearSdkMapsToForbidden() {
        JsonNode held = ProxyDecisionBodies.held(ProxyDialect.of(Tool.ISSUE_TRACKER), HELD, "corr-3", "https://gw.example",
                "https://docs.example/gw");
        assertThat(held.get("data").isNull()).isTrue();
        assertThat(held.get("errors")).hasSize(1);
        JsonNode error = held.at("/errors/0");
        assertThat(error.get("message").asString()).startsWith("Held for approval by the gateway: approval appr-1");
        JsonNode extensions = error.get("extensions");
        assertThat(extensions.get("code").asString()).isEqualTo("GATEWAY_APPROVAL_REQUIRED");
        assertThat(extensions.get("type").asString()).isEqualTo("forbidden");
        assertThat(extensions.get("userPresentableMessage").asString()).isEqualTo(error.get("message").asString());
        assertThat(extensions.get("decision").asString()).isEqualTo("require_approval");
        assertThat(extensions.get("approvalRequestId").asString()).isEqualTo("appr-1");
        assertThat(extensions.get("statusUrl").asString()).isEqualTo("/functions/v1/mcp-gate/status/appr-1");
        assertThat(extensions.get("correlationId").asString()).isEqualTo("corr-3");
        // the gateway's fields at the top level too, as for every tool
        assertThat(held.get("ok").booleanValue()).isFalse();
        assertThat(held.get("approvalRequestId").asString()).isEqualTo("appr-1");
        assertThat(held.has("documentation_url")).isFalse();
        // the Linear SDK would append a top-level "error" of another text to its message
        assertThat(held.get("error").asString()).isEqualTo(error.get("message").asString());
        assertThat(extensions.get("error").asString()).isEqualTo("Held for approval by the gateway");

        JsonNode blocked = ProxyDecisionBodies.blocked(ProxyDialect.GRAPHQL, BLOCKED, "corr-4", "https://docs.example/gw");
        assertThat(blocked.at("/errors/0/message").asString()).isEqualTo("Blocked by the gateway: Workspace kill switch is enabled");
        assertThat(blocked.at("/errors/0/extensions/code").asString()).isEqualTo("GATEWAY_BLOCKED");
        assertThat(blocked.at("/errors/0/extensions/type").asString()).isEqualTo("forbidden");
        assertThat(blocked.at("/errors/0/extensions/decision").asString()).isEqualTo("block");
        assertThat(blocked.get("decision").asString()).isEqualTo("block");
    }

    @Test
    void chatDocsAndInternalApisGetTheRestDialect() {
        for (Tool tool : new Tool[] {Tool.CHAT, Tool.DOCS, Tool.INTERNAL_API}) {
            assertThat(ProxyDialect.of(tool)).isEqualTo(ProxyDialect.REST);
        }
    }

    @Test
    void everyOtherErrorOfAToolsPathIsInItsDialectToo() {
        JsonNode rest = ProxyErrorDialect.body("/functions/v1/gateway-proxy/code_host/repos/a/b", HttpStatus.UNAUTHORIZED,
                "Invalid or expired API key", "corr-5").orElseThrow();
        assertThat(rest.get("message").asString()).isEqualTo("Invalid or expired API key");
        assertThat(rest.get("ok").booleanValue()).isFalse();
        assertThat(rest.get("error").asString()).isEqualTo("Invalid or expired API key");
        assertThat(rest.get("correlationId").asString()).isEqualTo("corr-5");

        JsonNode graphQl = ProxyErrorDialect.body("/functions/v1/gateway-proxy/issue_tracker/graphql", HttpStatus.TOO_MANY_REQUESTS,
                "Too many requests for this API key; retry later", "corr-6").orElseThrow();
        assertThat(graphQl.at("/errors/0/message").asString()).isEqualTo("Too many requests for this API key; retry later");
        assertThat(graphQl.at("/errors/0/extensions/type").asString()).isEqualTo("ratelimited");
        assertThat(graphQl.at("/errors/0/extensions/code").asString()).isEqualTo("TOO_MANY_REQUESTS");
        assertThat(graphQl.get("error").asString()).isEqualTo("Too many requests for this API key; retry later");
        assertThat(graphQl.get("correlationId").asString()).isEqualTo("corr-6");

        // not a proxied tool's path: the gateway's own body
        assertThat(ProxyErrorDialect.body("/functions/v1/gateway-proxy/mcp/x", HttpStatus.NOT_FOUND, "x", "c")).isEmpty();
        assertThat(ProxyErrorDialect.body("/functions/v1/gateway-proxy/shell/x", HttpStatus.NOT_FOUND, "x", "c")).isEmpty();
        assertThat(ProxyErrorDialect.body("/functions/v1/evaluate-action", HttpStatus.UNAUTHORIZED, "x", "c")).isEmpty();
    }

    @Test
    void theLinearSdksErrorClassFollowsTheStatus() {
        assertThat(ProxyDialect.linearType(HttpStatus.UNAUTHORIZED)).isEqualTo("authentication error");
        assertThat(ProxyDialect.linearType(HttpStatus.FORBIDDEN)).isEqualTo("forbidden");
        assertThat(ProxyDialect.linearType(HttpStatus.TOO_MANY_REQUESTS)).isEqualTo("ratelimited");
        assertThat(ProxyDialect.linearType(HttpStatus.BAD_REQUEST)).isEqualTo("invalid input");
        assertThat(ProxyDialect.linearType(HttpStatus.PAYLOAD_TOO_LARGE)).isEqualTo("invalid input");
        assertThat(ProxyDialect.linearType(HttpStatus.CONFLICT)).isEqualTo("other");
        assertThat(ProxyDialect.linearType(HttpStatus.INTERNAL_SERVER_ERROR)).isEqualTo("internal error");
        assertThat(ProxyDialect.linearType(HttpStatus.GATEWAY_TIMEOUT)).isEqualTo("network error");
        assertThat(ProxyDialect.linearType(HttpStatus.SERVICE_UNAVAILABLE)).isEqualTo("network error");
    }
}
