package io.agentgateway.console.admin;

import java.util.Map;
import org.springframework.util.MultiValueMap;

/**
 * The editor's "what it would have done" inputs: how many days of history the back-test replays, and the one action
 * the test box decides under the draft: a sample ({@code mode=sample}: tool, action, risk, agent, payload as JSON) or a
 * recorded evaluation ({@code mode=recorded}: its audit log id).
 */
public record PolicyTestInput(String days, String mode, String tool, String action, String riskLevel, String agentId,
                              String payload, String auditLogId) {
    static final int DEFAULT_DAYS = 7;
    static final int MAX_DAYS = 90;
    /** The API's test fields → the test box's inputs. */
    static final Map<String, String> INPUTS = Map.of("action.tool", "testTool", "action.action", "testAction",
            "action.riskLevel", "testRisk", "action.agentId", "testAgentId", "action.payload", "testPayload",
            "auditLogId", "testAuditLogId", "action", "testAction");

    static PolicyTestInput defaults() {
        return new PolicyTestInput(Integer.toString(DEFAULT_DAYS), "sample", "code_host", "", "high", "", "", "");
    }

    static PolicyTestInput of(MultiValueMap<String, String> form) {
        return new PolicyTestInput(orDefault(form.getFirst("days"), Integer.toString(DEFAULT_DAYS)),
                "recorded".equals(form.getFirst("testMode")) ? "recorded" : "sample", orDefault(form.getFirst("testTool"), ""),
                orDefault(form.getFirst("testAction"), ""), orDefault(form.getFirst("testRisk"), ""),
                orDefault(form.getFirst("testAgentId"), ""), orDefault(form.getFirst("testPayload"), ""),
                orDefault(form.getFirst("testAuditLogId"), ""));
    }

    /** With a recorded action chosen (a link from an audit row). */
    PolicyTestInput recorded(String id) {
        return new PolicyTestInput(days, "recorded", tool, action, riskLevel, agentId, payload, id);
    }

    public boolean isRecorded() {
        return "recorded".equals(mode);
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
