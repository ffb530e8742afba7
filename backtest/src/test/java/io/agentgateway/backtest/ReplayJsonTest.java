package io.agentgateway.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ReplayJsonTest {
    private final RecordedHistory history = new RecordedHistory();

    @Test
    void readsWhatAReplayNeedsAndSkipsTheRest() {
        EventEnvelope written = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, "reason", null);
        byte[] bytes = Topics.EVENTS.valueSerde().serializer().serialize(Topics.EVENTS.name(), written);

        EventEnvelope read = ReplayJson.envelope(bytes);

        ActionEvaluated original = (ActionEvaluated) written.event();
        assertThat(original.payloadExcerpt()).isNotNull();
        assertThat(read.event()).isEqualTo(new ActionEvaluated(original.auditLogId(), original.tool(), original.action(),
                original.riskLevel(), original.suppliedRiskLevel(), original.riskClassification(), original.riskOverriddenByCaller(),
                original.decision(), original.reason(), original.matchedPolicyId(), null,
                original.approvalRequestId(), original.agentId(), null, original.resourceType(), original.resourceId(),
                null, original.source(), null, original.payloadTruncated(), original.payloadBytes()));
        // the command id joins an evaluation to its command's whole inputs (what policy conditions read)
        assertThat(read).isEqualTo(new EventEnvelope(written.schemaVersion(), written.eventId(), written.workspaceId(),
                written.commandId(), null,
                written.occurredAt(), null, written.workspaceVersion(), written.policySetVersion(), read.event()));
    }

    @Test
    void unreadableRecordsAreNull() {
        EventEnvelope written = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, "reason", null);
        ObjectNode json = GatewayJson.MAPPER.valueToTree(written);
        ((ObjectNode) json.get("event")).put("type", "action_reevaluated");

        assertThat(ReplayJson.envelope(GatewayJson.MAPPER.writeValueAsBytes(json))).isNull();
        assertThat(ReplayJson.envelope("{not json".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(ReplayJson.envelope(null)).isNull();
    }
}
