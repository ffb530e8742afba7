package io.agentgateway.adminapi.killswitch;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.SetKillSwitch;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/** Validates a kill-switch body (spec 4.2): workspaceId, then action, then tool where needed, then the optional reason. */
final class KillSwitchRequests {
    static final String UNSUPPORTED_ACTION = "Unsupported action";
    static final String REASON_MESSAGE = "reason must be a string of at most " + KillSwitch.MAX_REASON_LENGTH
            + " characters";
    static final String TOOL_MESSAGE = "tool must be one of: " + WireNames.of(Tool.values());

    record KillSwitchRequest(UUID workspaceId, SetKillSwitch command) {}

    private KillSwitchRequests() {}

    static KillSwitchRequest parse(ObjectNode body) {
        String workspaceText = body.path("workspaceId").isString() ? body.get("workspaceId").stringValue() : null;
        UUID workspaceId = Uuids.require(workspaceText, "workspaceId");
        KillSwitchAction action = JsonFields.requiredEnum(body, "action", KillSwitchAction::parse, UNSUPPORTED_ACTION);
        Tool tool = switch (action) {
            case PAUSE_TOOL, RESUME_TOOL -> JsonFields.requiredEnum(body, "tool", Tool::parse, TOOL_MESSAGE);
            // the spec ignores tool for enable/disable; so do we, rather than refuse a harmless extra
            case ENABLE, DISABLE -> null;
        };
        String reason;
        try {
            reason = JsonFields.optionalString(body, "reason");
        } catch (ApiException notAString) {
            throw ApiException.badRequest(REASON_MESSAGE);
        }
        if (reason != null && reason.length() > KillSwitch.MAX_REASON_LENGTH) {
            throw ApiException.badRequest(REASON_MESSAGE);
        }
        return new KillSwitchRequest(workspaceId, new SetKillSwitch(action, tool, reason));
    }
}
