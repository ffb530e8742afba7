package io.agentgateway.schemas.command;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Decide one agent action. {@code riskLevel} is what the caller (or the entry point's own classifier)
 * supplied; the decision stream re-classifies it for the tools whose risk is server-side (spec 4.1).
 * {@code requiredScope} is the API-key scope the entry point demands ({@code evaluate}, {@code mcp},
 * {@code proxy}); the stream checks it against the key it knows, in log order with revocations.
 * {@code riskOverriddenByCaller} records an MCP {@code _risk} override for the audit trail.
 * {@code heldCall} is set by entry points that make the call themselves (proxy, MCP gate): the exact
 * call, sealed, for the gateway to run once if the decision is require_approval and a reviewer
 * approves; null for evaluate-action, whose caller makes the call itself.
 * {@code connectionVersion} is set by entry points that send the call with the workspace's connection to
 * {@code tool} (proxy, MCP gate): the version of the connection they hold ({@code ToolConnection.NONE}: none).
 * When it is not the stream's current one, nothing is decided and the reply is {@code stale}, carrying the
 * current connection. Null: the command does not depend on a connection (evaluate-action), no check.
 * {@code callView} is what reviewers are shown of the call should it be held: made by the entry
 * point from the call it seals, bounded and redacted; null from writers before it (the approval then shows none).
 * {@code listedTools} is set only on the MCP gate's {@code tools/list}: the names of the tools the upstream
 * lists (at most {@link #MAX_LISTED_TOOLS}, each at most {@link #MAX_LISTED_TOOL_NAME_CHARS} characters). When the list
 * is allowed, the reply's {@link EvaluationOutcome#hiddenTools()} names those a {@code tools/call} would be blocked for
 * whatever its arguments, decided with the same policies; the gate lists the others. Null: not a tool listing.
 * {@code conditionInputs} is what policy conditions read beyond these fields (the whole arguments, the proxied
 * request, the raw target facts): set by the proxy and the MCP gate; null from evaluate-action, whose {@code payload}
 * is the whole arguments, and from writers before conditions.
 */
public record EvaluateAction(
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String agentName,
        String resourceType,
        String resourceId,
        JsonNode payload,
        String requestedBy,
        ActionSource source,
        Scope requiredScope,
        boolean riskOverriddenByCaller,
        SealedHeldCall heldCall,
        Long connectionVersion,
        CallView callView,
        List<String> listedTools,
        ConditionInputs conditionInputs) implements Command {

    /** The most tool names one {@code tools/list} decision takes (a larger upstream page is refused, fail closed). */
    public static final int MAX_LISTED_TOOLS = 1000;
    /** The longest tool name decided: the longest a {@code tools/call} of the gate accepts. */
    public static final int MAX_LISTED_TOOL_NAME_CHARS = 256;

    public EvaluateAction {
        // a copy that keeps what was written (a null element too: the decision stream refuses it as invalid)
        listedTools = listedTools == null ? null : Collections.unmodifiableList(new ArrayList<>(listedTools));
    }

    /** Without condition inputs (evaluate-action, and the form before conditions). */
    public EvaluateAction(Tool tool, String action, RiskLevel riskLevel, String agentId, String agentName,
                          String resourceType, String resourceId, JsonNode payload, String requestedBy,
                          ActionSource source, Scope requiredScope, boolean riskOverriddenByCaller,
                          SealedHeldCall heldCall, Long connectionVersion, CallView callView,
                          List<String> listedTools) {
        this(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy, source,
                requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView, listedTools, null);
    }

    /**
     * Without listed tools (every evaluation but an MCP tools/list, and the form written before lists were decided).
     */
    public EvaluateAction(Tool tool, String action, RiskLevel riskLevel, String agentId, String agentName,
                          String resourceType, String resourceId, JsonNode payload, String requestedBy,
                          ActionSource source, Scope requiredScope, boolean riskOverriddenByCaller,
                          SealedHeldCall heldCall, Long connectionVersion, CallView callView) {
        this(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy, source,
                requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView, null);
    }

    /** Without a call view (the form written before reviewers were shown the call). */
    public EvaluateAction(Tool tool, String action, RiskLevel riskLevel, String agentId, String agentName,
                          String resourceType, String resourceId, JsonNode payload, String requestedBy,
                          ActionSource source, Scope requiredScope, boolean riskOverriddenByCaller,
                          SealedHeldCall heldCall, Long connectionVersion) {
        this(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy, source,
                requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, null);
    }

    /** Without a connection version: the decision does not depend on a connection the entry point holds. */
    public EvaluateAction(Tool tool, String action, RiskLevel riskLevel, String agentId, String agentName,
                          String resourceType, String resourceId, JsonNode payload, String requestedBy,
                          ActionSource source, Scope requiredScope, boolean riskOverriddenByCaller,
                          SealedHeldCall heldCall) {
        this(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy, source,
                requiredScope, riskOverriddenByCaller, heldCall, null);
    }

    /** The same action naming the version of the connection the entry point sends it with. */
    public EvaluateAction withConnectionVersion(long version) {
        return new EvaluateAction(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy,
                source, requiredScope, riskOverriddenByCaller, heldCall, version, callView, listedTools, conditionInputs);
    }

    /** The same action with what reviewers are shown of its call. */
    public EvaluateAction withCallView(CallView view) {
        return new EvaluateAction(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy,
                source, requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, view, listedTools, conditionInputs);
    }

    /** The same action under another agent id (the one its API key is bound to). */
    public EvaluateAction withAgentId(String boundAgentId) {
        return new EvaluateAction(tool, action, riskLevel, boundAgentId, agentName, resourceType, resourceId, payload,
                requestedBy, source, requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView, listedTools,
                conditionInputs);
    }

    /** The same tools/list naming the tools the upstream lists. */
    public EvaluateAction withListedTools(List<String> names) {
        return new EvaluateAction(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy,
                source, requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView, names, conditionInputs);
    }

    /** The same action with what policy conditions read of it beyond its fields (the proxy, the MCP gate). */
    public EvaluateAction withConditionInputs(ConditionInputs inputs) {
        return new EvaluateAction(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy,
                source, requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView, listedTools, inputs);
    }

    /** The v1 form without a held call (evaluate-action). */
    public EvaluateAction(Tool tool, String action, RiskLevel riskLevel, String agentId, String agentName,
                          String resourceType, String resourceId, JsonNode payload, String requestedBy,
                          ActionSource source, Scope requiredScope, boolean riskOverriddenByCaller) {
        this(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload, requestedBy, source,
                requiredScope, riskOverriddenByCaller, null, null, null);
    }

    /** A builder for an action of {@code tool}: every field but the tool, action and risk is optional. */
    public static Builder builder(Tool tool, String action, RiskLevel riskLevel) {
        return new Builder(tool, action, riskLevel);
    }

    /**
     * Names the fields an entry point sets instead of passing sixteen positional ones, most of them null. What it does
     * not set stays absent on the wire, exactly as the positional forms left it.
     */
    public static final class Builder {
        private final Tool tool;
        private final String action;
        private final RiskLevel riskLevel;
        private String agentId;
        private String agentName;
        private String resourceType;
        private String resourceId;
        private JsonNode payload;
        private String requestedBy;
        private ActionSource source;
        private Scope requiredScope;
        private boolean riskOverriddenByCaller;
        private SealedHeldCall heldCall;
        private Long connectionVersion;
        private CallView callView;
        private List<String> listedTools;
        private ConditionInputs conditionInputs;

        private Builder(Tool tool, String action, RiskLevel riskLevel) {
            this.tool = tool;
            this.action = action;
            this.riskLevel = riskLevel;
        }

        /** Where the action enters and the API-key scope that entry point demands. */
        public Builder from(ActionSource source, Scope requiredScope) {
            this.source = source;
            this.requiredScope = requiredScope;
            return this;
        }

        public Builder agent(String agentId, String agentName) {
            this.agentId = agentId;
            this.agentName = agentName;
            return this;
        }

        public Builder resource(String resourceType, String resourceId) {
            this.resourceType = resourceType;
            this.resourceId = resourceId;
            return this;
        }

        public Builder payload(JsonNode payload) {
            this.payload = payload;
            return this;
        }

        public Builder requestedBy(String requestedBy) {
            this.requestedBy = requestedBy;
            return this;
        }

        public Builder riskOverriddenByCaller(boolean overridden) {
            this.riskOverriddenByCaller = overridden;
            return this;
        }

        /** The exact call, sealed, for the gateway to run once if it is held and approved, and what reviewers see of it. */
        public Builder heldCall(SealedHeldCall heldCall, CallView callView) {
            this.heldCall = heldCall;
            this.callView = callView;
            return this;
        }

        /** What reviewers see of a call the caller makes itself (no held call). */
        public Builder callView(CallView callView) {
            this.callView = callView;
            return this;
        }

        public Builder connectionVersion(Long version) {
            this.connectionVersion = version;
            return this;
        }

        public Builder listedTools(List<String> names) {
            this.listedTools = names;
            return this;
        }

        /** What policy conditions read beyond the other fields: the whole arguments, the request, target facts. */
        public Builder conditionInputs(ConditionInputs inputs) {
            this.conditionInputs = inputs;
            return this;
        }

        public EvaluateAction build() {
            return new EvaluateAction(tool, action, riskLevel, agentId, agentName, resourceType, resourceId, payload,
                    requestedBy, source, requiredScope, riskOverriddenByCaller, heldCall, connectionVersion, callView,
                    listedTools, conditionInputs);
        }
    }
}
