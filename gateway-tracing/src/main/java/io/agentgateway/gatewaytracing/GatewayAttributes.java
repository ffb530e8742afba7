package io.agentgateway.gatewaytracing;

import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;

/**
 * What a span of the gateway says about the action it served: the workspace, tool, action, risk, decision, matched
 * policy and the correlation id of the audit row, plus ids (command, approval, audit row) and types. Nothing else is
 * ever recorded: no secret, token, key, argument value, resource id, payload, URL or message text, so a trace backend
 * learns what was decided, never with what. Every span is built from these setters or from fixed HTTP facts
 * (method, route template, status, upstream host).
 */
public final class GatewayAttributes {
    public static final AttributeKey<String> WORKSPACE = AttributeKey.stringKey("gateway.workspace.id");
    public static final AttributeKey<String> TOOL = AttributeKey.stringKey("gateway.tool");
    public static final AttributeKey<String> ACTION = AttributeKey.stringKey("gateway.action");
    public static final AttributeKey<String> RISK = AttributeKey.stringKey("gateway.risk");
    public static final AttributeKey<String> DECISION = AttributeKey.stringKey("gateway.decision");
    public static final AttributeKey<String> POLICY = AttributeKey.stringKey("gateway.policy.id");
    public static final AttributeKey<String> CORRELATION_ID = AttributeKey.stringKey("gateway.correlation.id");
    public static final AttributeKey<String> COMMAND_TYPE = AttributeKey.stringKey("gateway.command.type");
    public static final AttributeKey<String> COMMAND_ID = AttributeKey.stringKey("gateway.command.id");
    public static final AttributeKey<String> APPROVAL_ID = AttributeKey.stringKey("gateway.approval.id");
    public static final AttributeKey<String> AUDIT_ID = AttributeKey.stringKey("gateway.audit.id");
    public static final AttributeKey<String> REPLY_STATUS = AttributeKey.stringKey("gateway.reply.status");
    public static final AttributeKey<String> EVENT_TYPE = AttributeKey.stringKey("gateway.event.type");
    public static final AttributeKey<String> NOTIFICATION_KIND = AttributeKey.stringKey("gateway.notification.kind");
    public static final AttributeKey<String> CHANNEL = AttributeKey.stringKey("gateway.notification.channel");
    public static final AttributeKey<String> UPSTREAM = AttributeKey.stringKey("gateway.upstream");
    public static final AttributeKey<String> LINK_ROLE = AttributeKey.stringKey("gateway.link");
    public static final AttributeKey<Boolean> CANCELLED = AttributeKey.booleanKey("gateway.cancelled");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    public static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    public static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    public static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    public static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    public static final AttributeKey<String> MESSAGING_DESTINATION = AttributeKey.stringKey("messaging.destination.name");

    private GatewayAttributes() {}

    /** The span's name for handling a command: {@code <verb> <CommandType>}. */
    public static String commandType(Command command) {
        return command == null ? "Unknown" : command.getClass().getSimpleName();
    }

    /** Workspace, correlation id, command type and id; tool, action and requested risk of an evaluation; approval id of a review, claim or run. */
    public static void command(Span span, CommandEnvelope envelope) {
        if (envelope == null) {
            return;
        }
        setIfPresent(span, WORKSPACE, envelope.workspaceId());
        setIfPresent(span, CORRELATION_ID, envelope.correlationId());
        setIfPresent(span, COMMAND_ID, envelope.commandId());
        Command command = envelope.command();
        span.setAttribute(COMMAND_TYPE, commandType(command));
        if (command instanceof EvaluateAction evaluate) {
            setIfPresent(span, TOOL, evaluate.tool() == null ? null : evaluate.tool().wire());
            setIfPresent(span, ACTION, evaluate.action());
            setIfPresent(span, RISK, evaluate.riskLevel() == null ? null : evaluate.riskLevel().wire());
        } else if (command instanceof ReviewApproval review) {
            setIfPresent(span, APPROVAL_ID, review.approvalId());
        } else if (command instanceof ClaimApprovedCall claim) {
            setIfPresent(span, APPROVAL_ID, claim.approvalId());
        } else if (command instanceof RecordCallExecution run) {
            setIfPresent(span, APPROVAL_ID, run.approvalId());
        } else if (command instanceof SetKillSwitch killSwitch) {
            setIfPresent(span, ACTION, killSwitch.action() == null ? null : "kill_switch." + killSwitch.action().wire());
            setIfPresent(span, TOOL, killSwitch.tool() == null ? null : killSwitch.tool().wire());
        } else if (command instanceof ReceiveWebhook webhook) {
            setIfPresent(span, TOOL, webhook.tool() == null ? null : webhook.tool().wire());
        }
    }

    /** The reply's status and, for an evaluation, the decision, the decided risk, the matched policy, the audit row and approval. */
    public static void reply(Span span, Reply reply) {
        if (reply == null) {
            return;
        }
        setIfPresent(span, REPLY_STATUS, reply.status() == null ? null : reply.status().wire());
        outcome(span, reply.evaluation());
    }

    public static void outcome(Span span, EvaluationOutcome evaluation) {
        if (evaluation == null) {
            return;
        }
        setIfPresent(span, DECISION, evaluation.decision() == null ? null : evaluation.decision().wire());
        setIfPresent(span, RISK, evaluation.riskLevel() == null ? null : evaluation.riskLevel().wire());
        setIfPresent(span, POLICY, evaluation.matchedPolicyId());
        setIfPresent(span, AUDIT_ID, evaluation.auditLogId());
        setIfPresent(span, APPROVAL_ID, evaluation.approvalRequestId());
    }

    /** Workspace, correlation id, event type; what an evaluation decided; the approval an approval event is about. */
    public static void event(Span span, EventEnvelope envelope) {
        if (envelope == null) {
            return;
        }
        setIfPresent(span, WORKSPACE, envelope.workspaceId());
        setIfPresent(span, CORRELATION_ID, envelope.correlationId());
        if (envelope.event() == null) {
            return;
        }
        span.setAttribute(EVENT_TYPE, envelope.event().getClass().getSimpleName());
        if (envelope.event() instanceof ActionEvaluated evaluated) {
            evaluated(span, evaluated);
        } else if (envelope.event() instanceof ApprovalRequested requested) {
            setIfPresent(span, APPROVAL_ID, requested.approvalId());
            setIfPresent(span, TOOL, requested.tool() == null ? null : requested.tool().wire());
            setIfPresent(span, ACTION, requested.action());
        } else if (envelope.event() instanceof ApprovalReviewed reviewed) {
            setIfPresent(span, APPROVAL_ID, reviewed.approvalId());
            setIfPresent(span, TOOL, reviewed.tool() == null ? null : reviewed.tool().wire());
            setIfPresent(span, ACTION, reviewed.action());
        }
    }

    /** What an evaluation decided, as its audit event records it. */
    public static void evaluated(Span span, ActionEvaluated evaluated) {
        setIfPresent(span, TOOL, evaluated.tool() == null ? null : evaluated.tool().wire());
        setIfPresent(span, ACTION, evaluated.action());
        setIfPresent(span, RISK, evaluated.riskLevel() == null ? null : evaluated.riskLevel().wire());
        setIfPresent(span, DECISION, evaluated.decision() == null ? null : evaluated.decision().wire());
        setIfPresent(span, POLICY, evaluated.matchedPolicyId());
        setIfPresent(span, AUDIT_ID, evaluated.auditLogId());
        setIfPresent(span, APPROVAL_ID, evaluated.approvalRequestId());
    }

    /** Workspace, correlation id and kind of a notification (never its text, subject, recipients or webhook). */
    public static void notification(Span span, NotificationRequested notification) {
        if (notification == null) {
            return;
        }
        setIfPresent(span, WORKSPACE, notification.workspaceId());
        setIfPresent(span, CORRELATION_ID, notification.correlationId());
        setIfPresent(span, NOTIFICATION_KIND, notification.kind());
    }

    private static void setIfPresent(Span span, AttributeKey<String> key, String value) {
        if (value != null) {
            span.setAttribute(key, value);
        }
    }
}
