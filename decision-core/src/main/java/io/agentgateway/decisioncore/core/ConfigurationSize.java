package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.WorkspaceConfig;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;

/**
 * Holds the workspace's configuration value under {@code limits.configurationBytes} as stored (the same
 * JSON the store writes). Checked after the handler, only when the value changed, and only against a
 * change that makes it bigger: a workspace over the limit (a limit lowered later) may still shrink.
 * This is what keeps the configuration's changelog record far under the broker's size limit by
 * construction, so its write cannot fail for its size.
 */
final class ConfigurationSize {
    private final int limit;

    ConfigurationSize(int limit) {
        this.limit = limit;
    }

    CommandResult check(CommandEnvelope envelope, WorkspaceState before, CommandResult result) {
        if (result.status() != ReplyStatus.OK || !result.state().configChangedFrom(before)) {
            return result;
        }
        int after = bytes(result.state().config());
        if (after <= limit || after <= bytes(before.config())) {
            return result;
        }
        return LimitRefusal.refuse(envelope, before, DecisionLimits.CONFIGURATION_BYTES, limit,
                "Workspace configuration would be " + after + " bytes, over its limit of " + limit + " bytes"
                        + " (gateway.decision.limits.configuration-bytes; policies, members and tool connections together)");
    }

    static int bytes(WorkspaceConfig config) {
        return GatewayJson.MAPPER.writeValueAsBytes(config).length;
    }
}
