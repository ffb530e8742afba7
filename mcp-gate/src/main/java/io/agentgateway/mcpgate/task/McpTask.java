package io.agentgateway.mcpgate.task;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcMessages;
import io.agentgateway.mcpgate.session.McpRevisions;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.httpedge.web.IngressJson;
import java.time.Duration;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MCP task as the gate derives it, whatever revision asks: the task of a held {@code tools/call} is its approval
 * ({@link #ofApproval}), the task of an allowed call asked for as a task is its kept result ({@link #ofAllowedCall}).
 * Nothing of a task is held in memory: any replica derives the same task from the same records.
 *
 * @param state      working until the call ran or can no longer run
 * @param result     what the call returned (state {@link State#RAN}): the upstream's {@code CallToolResult}
 * @param error      why the call did not run or has no result (states {@link State#DID_NOT_RUN},
 *                   {@link State#WITHDRAWN}): the JSON-RPC error the call would have been answered with
 */
record McpTask(String taskId, State state, String statusMessage, Instant createdAt, Instant lastUpdatedAt, long ttlMs,
               ObjectNode result, JsonRpcError error) {

    enum State {
        /** Pending approval, approved, or running. */
        WORKING,
        /** The call ran; {@link #result} is its result (which may itself say {@code isError}). */
        RAN,
        /** It was rejected, expired, stopped by the kill switch or a paused tool, or failed without a result. */
        DID_NOT_RUN,
        /** Its client withdrew it ({@code tasks/cancel}) before it was decided. */
        WITHDRAWN
    }

    boolean ended() {
        return state != State.WORKING;
    }

    /** The task's status as the revision names it. 2025-11-25: a tool result with {@code isError} is a failed task. */
    String status(Tasks revision) {
        return switch (state) {
            case WORKING -> "working";
            case RAN -> revision == Tasks.UTILITY && result.path("isError").asBoolean(false) ? "failed" : "completed";
            case DID_NOT_RUN -> "failed";
            case WITHDRAWN -> "cancelled";
        };
    }

    /**
     * The {@code Task} object: 2025-11-25's ({@code ttl}, {@code pollInterval}), or 2026-07-28's ({@code ttlMs},
     * {@code pollIntervalMs}, and once ended the result or the error inline).
     */
    ObjectNode toJson(Tasks revision, Duration pollInterval) {
        ObjectNode task = IngressJson.RESPONSES.createObjectNode();
        task.put("taskId", taskId);
        task.put("status", status(revision));
        if (statusMessage != null) {
            task.put("statusMessage", statusMessage);
        }
        task.put("createdAt", createdAt.toString());
        task.put("lastUpdatedAt", lastUpdatedAt.toString());
        if (revision == Tasks.EXTENSION) {
            task.put("ttlMs", ttlMs);
            task.put("pollIntervalMs", pollInterval.toMillis());
            if (state == State.RAN) {
                task.set("result", result.deepCopy());
            } else if (state == State.DID_NOT_RUN) {
                task.set("error", JsonRpcMessages.errorObject(error));
            }
        } else {
            task.put("ttl", ttlMs);
            if (!ended()) {
                task.put("pollInterval", pollInterval.toMillis());
            }
        }
        return task;
    }

    /**
     * 2025-11-25's {@code tasks/result} of an ended task: exactly what the call would have returned, the result with
     * the related-task {@code _meta}, or the error (whose data names the task).
     */
    JsonNode finalResult() {
        if (state == State.RAN) {
            ObjectNode answer = result.deepCopy();
            JsonNode meta = answer.get("_meta");
            ObjectNode metaObject = meta instanceof ObjectNode given ? given : answer.putObject("_meta");
            metaObject.putObject(McpRevisions.RELATED_TASK).put("taskId", taskId);
            return answer;
        }
        ObjectNode data = error.data() instanceof ObjectNode given ? given.deepCopy() : IngressJson.RESPONSES.createObjectNode();
        data.put("taskId", taskId);
        throw error.withData(data);
    }

    /** What the read model or the decision stream knows of a held call's approval. */
    record ApprovalFacts(String approvalId, String status, Instant createdAt, Instant updatedAt, Instant expiresAt,
                         String reviewedBy, String reviewReason, JsonNode executionResult, String cancelReason,
                         String correlationId, String auditLogId, String matchedPolicyId, boolean heldByStream) {}

    /**
     * The task of a held call. Its lifetime ({@code ttl}) covers the approval's expiry, as long again (the longest an
     * approved call waits to be run before the decision stream lets go of it) and {@code retention}.
     *
     * @param now the reader's clock: a pending approval past its expiry has expired (as the status endpoint says),
     *            and an approved call the stream no longer holds and can no longer run did not run
     */
    static McpTask ofApproval(ApprovalFacts facts, Instant now, Duration retention) {
        Duration approvalTtl = Duration.between(facts.createdAt(), facts.expiresAt());
        Instant runBy = facts.expiresAt().plus(approvalTtl);
        long ttlMs = approvalTtl.multipliedBy(2).plus(retention).toMillis();
        Instant updated = facts.updatedAt() == null ? facts.createdAt() : facts.updatedAt();
        String id = facts.approvalId();
        String status = facts.status();
        if ("pending".equals(status) && now.isAfter(facts.expiresAt())) {
            status = "expired";
            updated = facts.expiresAt();
        }
        if (("approved".equals(status) || "executing".equals(status)) && !facts.heldByStream() && now.isAfter(runBy)) {
            // the stream let go of it unrun (or its run was never recorded): it can never run any more
            String why = "approved".equals(status)
                    ? "The approved call was never run: approval request " + id + " was not claimed before " + runBy
                    : "The outcome of the approved call was never recorded: whether it ran upstream is unknown";
            return new McpTask(id, State.DID_NOT_RUN, why, facts.createdAt(), runBy, ttlMs, null,
                    new JsonRpcError(JsonRpcError.UPSTREAM_FAILED, why, approvalData(facts, "failed", why)));
        }
        return switch (status) {
            case "pending" -> working(facts, "Waiting for a human approval: approval request " + id + " expires at "
                    + facts.expiresAt() + "; the call runs once it is approved, and never if it is not", updated, ttlMs);
            case "approved" -> working(facts, "Approved" + by(facts.reviewedBy()) + "; the call runs now", updated, ttlMs);
            case "executing" -> working(facts, "Approved" + by(facts.reviewedBy()) + "; the call is running", updated, ttlMs);
            case "executed" -> {
                ObjectNode result = facts.executionResult() instanceof ObjectNode given ? given.deepCopy()
                        : IngressJson.RESPONSES.createObjectNode();
                ObjectNode service = meta(result).putObject("service");
                service.put("status", "executed");
                service.put("approvalRequestId", id);
                service.put("auditLogId", facts.auditLogId());
                service.put("correlationId", facts.correlationId());
                service.put("matchedPolicyId", facts.matchedPolicyId());
                yield new McpTask(id, State.RAN, "Approved" + by(facts.reviewedBy()) + " and run", facts.createdAt(),
                        updated, ttlMs, result, null);
            }
            case "failed" -> {
                String why = firstText(facts.executionResult(), "The approved call failed");
                yield didNotRun(facts, "failed", JsonRpcError.UPSTREAM_FAILED, why, why, updated, ttlMs);
            }
            case "rejected" -> {
                String why = "Rejected" + by(facts.reviewedBy())
                        + (facts.reviewReason() == null || facts.reviewReason().isBlank() ? "" : ": " + facts.reviewReason());
                yield didNotRun(facts, "rejected", JsonRpcError.BLOCKED, "Tool call rejected by a reviewer", why, updated, ttlMs);
            }
            case "expired" -> {
                String why = "Approval request " + id + " expired at " + facts.expiresAt() + " without a review";
                yield didNotRun(facts, "expired", JsonRpcError.BLOCKED, "Tool call not approved in time", why, updated, ttlMs);
            }
            case "cancelled" -> {
                String why = facts.cancelReason() == null ? "Approved, but stopped before it ran" : facts.cancelReason();
                yield didNotRun(facts, "cancelled", JsonRpcError.BLOCKED, JsonRpcError.BLOCKED_MESSAGE, why, updated, ttlMs);
            }
            case "withdrawn" -> {
                String why = WITHDRAWN_MESSAGE;
                yield new McpTask(id, State.WITHDRAWN, why, facts.createdAt(), updated, ttlMs, null,
                        new JsonRpcError(JsonRpcError.BLOCKED, "Tool call withdrawn by the client",
                                approvalData(facts, "withdrawn", why)));
            }
            default -> throw new IllegalStateException("approval " + id + " has the unknown status " + status);
        };
    }

    /** The task of an allowed call asked for as a task (2025-11-25): its result, as the client would have had it. */
    static McpTask ofAllowedCall(String taskId, Instant createdAt, Duration retention, ObjectNode result) {
        return new McpTask(taskId, State.RAN, "Allowed by policy and run at once", createdAt, createdAt,
                retention.toMillis(), result, null);
    }

    static final String WITHDRAWN_MESSAGE = "Cancelled by the client (tasks/cancel) before it was reviewed; the call never ran";

    /** The same task, withdrawn by its client now (what {@code tasks/cancel} answers before the read model shows it). */
    McpTask withdrawnAt(Instant at) {
        String why = WITHDRAWN_MESSAGE;
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("status", "withdrawn");
        data.put("reason", why);
        data.put("approvalRequestId", taskId);
        return new McpTask(taskId, State.WITHDRAWN, why, createdAt, at, ttlMs, null,
                new JsonRpcError(JsonRpcError.BLOCKED, "Tool call withdrawn by the client", data));
    }

    private static McpTask working(ApprovalFacts facts, String message, Instant updated, long ttlMs) {
        return new McpTask(facts.approvalId(), State.WORKING, message, facts.createdAt(), updated, ttlMs, null, null);
    }

    private static McpTask didNotRun(ApprovalFacts facts, String status, int code, String message, String why,
                                     Instant updated, long ttlMs) {
        return new McpTask(facts.approvalId(), State.DID_NOT_RUN, why, facts.createdAt(), updated, ttlMs, null,
                new JsonRpcError(code, message, approvalData(facts, status, why)));
    }

    /** The error's data: as a blocked call's (spec 4.3: reason, auditLogId, correlationId, matchedPolicyId) and which approval. */
    private static ObjectNode approvalData(ApprovalFacts facts, String status, String why) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("status", status);
        data.put("reason", why);
        data.put("approvalRequestId", facts.approvalId());
        data.put("auditLogId", facts.auditLogId());
        data.put("correlationId", facts.correlationId());
        data.put("matchedPolicyId", facts.matchedPolicyId());
        return data;
    }

    private static String by(String reviewer) {
        return reviewer == null || reviewer.isBlank() ? "" : " by " + reviewer;
    }

    private static String firstText(JsonNode result, String fallback) {
        JsonNode text = result == null ? null : result.at("/content/0/text");
        return text != null && text.isString() && !text.asString().isBlank() ? text.asString() : fallback;
    }

    private static ObjectNode meta(ObjectNode result) {
        JsonNode meta = result.get("_meta");
        return meta instanceof ObjectNode object ? object : result.putObject("_meta");
    }
}
