package io.agentgateway.mcpgate.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTask.ApprovalFacts;
import io.agentgateway.httpedge.web.IngressJson;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a held call's approval becomes its task, in both revisions: every approval status, the lifetime, the
 * 2025-11-25 {@code Task} and {@code tasks/result}, 2026-07-28's inline result and error.
 */
class McpTaskTest {
    private static final Instant CREATED = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant EXPIRES = CREATED.plus(Duration.ofHours(24));
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final String ID = UUID.randomUUID().toString();
    private static final JsonNode RESULT = IngressJson.REQUESTS.readTree("""
            {"content":[{"type":"text","text":"done"},{"type":"image","data":"aGk=","mimeType":"image/png"}],
             "structuredContent":{"rows":3},"isError":false,"_meta":{"upstream":"x"}}""");

    private static ApprovalFacts facts(String status, JsonNode result, boolean held) {
        return new ApprovalFacts(ID, status, CREATED, CREATED.plusSeconds(30), EXPIRES, "alice", "looks fine", result,
                "The workspace kill switch was on", "corr-1", "audit-1", "policy-1", held);
    }

    private static McpTask task(String status) {
        return McpTask.ofApproval(facts(status, null, false), CREATED.plusSeconds(60), RETENTION);
    }

    @Test
    void aPendingApprovalIsAWorkingTaskThatNamesItsApprovalAndExpiry() {
        McpTask task = McpTask.ofApproval(facts("pending", null, true), CREATED.plusSeconds(1), RETENTION);

        ObjectNode utility = task.toJson(Tasks.UTILITY, Duration.ofSeconds(5));
        assertThat(utility.get("taskId").asString()).isEqualTo(ID);
        assertThat(utility.get("status").asString()).isEqualTo("working");
        assertThat(utility.get("statusMessage").asString()).contains(ID).contains(EXPIRES.toString());
        assertThat(utility.get("createdAt").asString()).isEqualTo(CREATED.toString());
        // the approval's expiry, as long again for the approved call to run, and the retention
        assertThat(utility.get("ttl").asLong()).isEqualTo(Duration.ofHours(49).toMillis());
        assertThat(utility.get("pollInterval").asLong()).isEqualTo(5000);

        ObjectNode extension = task.toJson(Tasks.EXTENSION, Duration.ofSeconds(5));
        assertThat(extension.get("ttlMs").asLong()).isEqualTo(Duration.ofHours(49).toMillis());
        assertThat(extension.get("pollIntervalMs").asLong()).isEqualTo(5000);
        assertThat(extension.has("ttl")).isFalse();
        assertThat(extension.has("result") || extension.has("error")).isFalse();
    }

    @Test
    void approvedAndRunningAreWorkingAndAPendingApprovalPastItsExpiryHasExpired() {
        assertThat(task("approved").state()).isEqualTo(McpTask.State.WORKING);
        assertThat(task("approved").statusMessage()).contains("alice");
        assertThat(task("executing").state()).isEqualTo(McpTask.State.WORKING);

        McpTask late = McpTask.ofApproval(facts("pending", null, true), EXPIRES.plusSeconds(1), RETENTION);
        assertThat(late.state()).isEqualTo(McpTask.State.DID_NOT_RUN);
        assertThat(late.error().code()).isEqualTo(JsonRpcError.BLOCKED);
        assertThat(late.error().data().get("status").asString()).isEqualTo("expired");
    }

    @Test
    void anExecutedCallIsCompletedWithTheUpstreamsWholeResultAndTheRelatedTaskMeta() {
        McpTask task = McpTask.ofApproval(facts("executed", RESULT, false), CREATED.plusSeconds(60), RETENTION);

        assertThat(task.status(Tasks.UTILITY)).isEqualTo("completed");
        JsonNode result = task.finalResult();
        assertThat(result.get("content")).isEqualTo(RESULT.get("content"));
        assertThat(result.get("structuredContent")).isEqualTo(RESULT.get("structuredContent"));
        assertThat(result.at("/_meta/upstream").asString()).isEqualTo("x");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(ID);
        assertThat(result.at("/_meta/service/status").asString()).isEqualTo("executed");
        assertThat(result.at("/_meta/service/auditLogId").asString()).isEqualTo("audit-1");

        ObjectNode extension = task.toJson(Tasks.EXTENSION, Duration.ofSeconds(5));
        assertThat(extension.get("status").asString()).isEqualTo("completed");
        assertThat(extension.at("/result/content")).isEqualTo(RESULT.get("content"));
        assertThat(extension.has("error")).isFalse();
        assertThat(task.toJson(Tasks.UTILITY, Duration.ofSeconds(5)).has("pollInterval")).as("ended").isFalse();
    }

    @Test
    void aToolErrorIsAFailedTaskIn2025ButACompletedOneIn2026() {
        ObjectNode error = (ObjectNode) RESULT.deepCopy();
        error.put("isError", true);
        McpTask task = McpTask.ofApproval(facts("executed", error, false), CREATED.plusSeconds(60), RETENTION);

        assertThat(task.status(Tasks.UTILITY)).isEqualTo("failed");
        assertThat(task.status(Tasks.EXTENSION)).isEqualTo("completed");
        assertThat(task.finalResult().get("isError").asBoolean()).as("still the result the call returned").isTrue();
    }

    @Test
    void rejectedExpiredAndKillSwitchAreFailedWithTheBlockAndItsReason() {
        McpTask rejected = task("rejected");
        assertThat(rejected.status(Tasks.UTILITY)).isEqualTo("failed");
        assertThat(rejected.statusMessage()).isEqualTo("Rejected by alice: looks fine");
        JsonRpcError error = catchThrowableOfType(JsonRpcError.class, rejected::finalResult);
        assertThat(error.code()).isEqualTo(JsonRpcError.BLOCKED);
        assertThat(error.data().get("reason").asString()).isEqualTo("Rejected by alice: looks fine");
        assertThat(error.data().get("taskId").asString()).isEqualTo(ID);
        assertThat(error.data().get("auditLogId").asString()).isEqualTo("audit-1");
        assertThat(error.data().get("correlationId").asString()).isEqualTo("corr-1");
        assertThat(error.data().get("matchedPolicyId").asString()).isEqualTo("policy-1");

        ObjectNode inline = rejected.toJson(Tasks.EXTENSION, Duration.ofSeconds(5));
        assertThat(inline.get("status").asString()).isEqualTo("failed");
        assertThat(inline.at("/error/code").asInt()).isEqualTo(JsonRpcError.BLOCKED);
        assertThat(inline.at("/error/data/status").asString()).isEqualTo("rejected");
        assertThat(inline.has("result")).isFalse();

        McpTask cancelled = task("cancelled");
        assertThat(cancelled.status(Tasks.UTILITY)).isEqualTo("failed");
        assertThat(cancelled.error().getMessage()).isEqualTo(JsonRpcError.BLOCKED_MESSAGE);
        assertThat(cancelled.statusMessage()).isEqualTo("The workspace kill switch was on");

        assertThat(task("expired").error().data().get("status").asString()).isEqualTo("expired");
        McpTask failed = McpTask.ofApproval(facts("failed", IngressJson.REQUESTS.readTree(
                "{\"content\":[{\"type\":\"text\",\"text\":\"Not run: no upstream\"}],\"isError\":true}"), false),
                CREATED.plusSeconds(60), RETENTION);
        assertThat(failed.error().code()).isEqualTo(JsonRpcError.UPSTREAM_FAILED);
        assertThat(failed.statusMessage()).isEqualTo("Not run: no upstream");
    }

    @Test
    void aWithdrawnApprovalIsACancelledTask() {
        McpTask withdrawn = task("withdrawn");
        assertThat(withdrawn.status(Tasks.UTILITY)).isEqualTo("cancelled");
        assertThat(withdrawn.status(Tasks.EXTENSION)).isEqualTo("cancelled");
        assertThat(withdrawn.toJson(Tasks.EXTENSION, Duration.ofSeconds(5)).has("error")).isFalse();
        assertThat(catchThrowableOfType(JsonRpcError.class, withdrawn::finalResult).data().get("status").asString())
                .isEqualTo("withdrawn");
    }

    @Test
    void anApprovedCallTheStreamLetGoOfUnrunHasFailed() {
        Instant afterItCouldRun = EXPIRES.plus(Duration.ofHours(24)).plusSeconds(1);
        McpTask forgotten = McpTask.ofApproval(facts("approved", null, false), afterItCouldRun, RETENTION);
        assertThat(forgotten.state()).isEqualTo(McpTask.State.DID_NOT_RUN);
        assertThat(forgotten.error().code()).isEqualTo(JsonRpcError.UPSTREAM_FAILED);
        // while the stream holds it, it is still working
        assertThat(McpTask.ofApproval(facts("approved", null, true), afterItCouldRun, RETENTION).state())
                .isEqualTo(McpTask.State.WORKING);
    }

    @Test
    void toolListsOfferEveryToolAsOptionallyATaskIn2025() {
        JsonNode page = IngressJson.REQUESTS.readTree("""
                {"tools":[{"name":"a","inputSchema":{"type":"object"}},
                          {"name":"b","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden","x":1}}]}""");
        JsonNode marked = McpTasks.withTaskSupport(page);
        assertThat(marked.at("/tools/0/execution/taskSupport").asString()).isEqualTo("optional");
        assertThat(marked.at("/tools/1/execution/taskSupport").asString()).isEqualTo("optional");
        assertThat(marked.at("/tools/1/execution/x").asInt()).isEqualTo(1);
    }
}
