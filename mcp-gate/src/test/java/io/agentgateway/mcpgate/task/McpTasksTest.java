package io.agentgateway.mcpgate.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.ApprovalWithdrawals;
import io.agentgateway.gatewayclient.LiveEvents;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.mcpgate.McpGateSliceTest;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task methods over HTTP ({@code tasks/get|result|list|cancel}, 2025-11-25; the 2026-07-28 extension's), with
 * the decision stream stubbed at the module's boundary (its snapshot of an open approval, its withdrawals, its events)
 * and the read model real: a held {@code tools/call} asked for as a task is a working task, its {@code tasks/result}
 * waits and is answered by the executed event with the result the read model stores, another key's task is not found.
 */
class McpTasksTest extends McpGateSliceTest {
    @Autowired
    private JdbcClient jdbc;
    private final Sinks.Many<LiveEvents.Signal> log = Sinks.many().multicast().directBestEffort();
    private String session;

    @BeforeEach
    void aTwentyTwentyFiveElevenSession() {
        when(events.of(workspace)).thenReturn(log.asFlux());
        var answer = post(request(1, "initialize", params().put("protocolVersion", "2025-11-25")))
                .expectStatus().isOk().expectBody().returnResult();
        session = answer.getResponseHeaders().getFirst("Mcp-Session-Id");
    }

    /** The task of a held delete_repo, its approval pending in the stream and projected as the projector would. */
    private String heldTask() {
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        EvaluationOutcome outcome = held(createdAt);
        decides(outcome);
        ObjectNode params = call("delete_repo", UUID.randomUUID().toString());
        params.putObject("task");
        JsonNode created = rpc(request(2, "tools/call", params), "Mcp-Session-Id", session).get("result");
        assertThat(created.at("/task/status").asString()).isEqualTo("working");
        String taskId = created.at("/task/taskId").asString();
        assertThat(taskId).isEqualTo(outcome.approvalRequestId());
        jdbc.sql("""
                        insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                            agent_id, call_digest, status, created_at, expires_at, updated_at, held_call_kind, requested_by_key_hash)
                        values (:id, :ws, :audit, 'corr-1', 'mcp', 'delete_repo', 'high', 'agent-1', 'digest', 'pending',
                            :created, :expires, :created, 'mcp_tool_call', :key)""")
                .param("id", UUID.fromString(taskId)).param("ws", workspace).param("audit", UUID.fromString(outcome.auditLogId()))
                .param("created", utc(createdAt)).param("expires", utc(outcome.approvalExpiresAt())).param("key", keyHash).update();
        streamHolds(taskId, "pending", createdAt, outcome.approvalExpiresAt());
        return taskId;
    }

    /** What a check_access through the decision stream answers about the approval (null: it no longer holds it). */
    private void streamHolds(String taskId, String status, Instant createdAt, Instant expiresAt) {
        ApprovalSnapshot snapshot = status == null ? null : new ApprovalSnapshot(taskId, status, Tool.MCP, "delete_repo",
                expiresAt, createdAt, keyHash, HeldCallKind.MCP_TOOL_CALL);
        when(access.lookUpApproval(eq(workspace), anyString(), any(), eq(Scope.MCP), eq(taskId))).thenReturn(Mono.just(
                new Reply(Reply.CURRENT_VERSION, "c", "corr", workspace.toString(), 0, ReplyStatus.OK, null, null, null, 1L, snapshot)));
    }

    private void executed(String taskId, Instant at) {
        jdbc.sql("""
                        update approval_requests set status = 'executed', updated_at = :at, reviewed_by = 'r1',
                            execution_result = cast(:result as jsonb) where id = :id""")
                .param("at", utc(at)).param("id", UUID.fromString(taskId))
                .param("result", "{\"content\":[{\"type\":\"text\",\"text\":\"deleted\"}],\"isError\":false}").update();
    }

    private static OffsetDateTime utc(Instant at) {
        return OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    }

    private JsonNode task(String method, String taskId) {
        return rpc(request(5, method, params().put("taskId", taskId)), "Mcp-Session-Id", session);
    }

    @Test
    void aWaitingTaskResultIsAnsweredByTheExecutedEventWithTheResultTheReadModelStores() throws Exception {
        String taskId = heldTask();
        assertThat(task("tasks/get", taskId).at("/result/status").asString()).isEqualTo("working");

        CompletableFuture<JsonNode> result = Mono.fromCallable(() -> task("tasks/result", taskId))
                .subscribeOn(Schedulers.boundedElastic()).toFuture();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !result.isDone());

        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        executed(taskId, at);
        streamHolds(taskId, null, null, null);
        log.tryEmitNext(new LiveEvents.Event(new EventEnvelope(EventEnvelope.CURRENT_VERSION, "e1", workspace.toString(),
                "c1", "corr", at, Actor.system("executor"), 3, 1, new ApprovedCallExecuted(taskId, "x", null, at))));

        JsonNode answer = result.get(5, TimeUnit.SECONDS).get("result");
        assertThat(answer.at("/content/0/text").asString()).isEqualTo("deleted");
        assertThat(answer.at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
        assertThat(answer.at("/_meta/service/status").asString()).isEqualTo("executed");
        assertThat(task("tasks/get", taskId).at("/result/status").asString()).isEqualTo("completed");
        assertThat(task("tasks/list", taskId).at("/result/tasks").findValuesAsString("taskId")).contains(taskId);
    }

    @Test
    void aTaskResultStillWorkingAtItsDeadlineIsMinus32603SayingSo() {
        String taskId = heldTask();
        JsonNode error = task("tasks/result", taskId).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32603);
        assertThat(error.at("/data/status").asString()).isEqualTo("working");
    }

    @Test
    void anotherKeysTaskOrAnUnknownOneIsNotFound() {
        String taskId = heldTask();
        jdbc.sql("update approval_requests set requested_by_key_hash = 'another' where id = :id")
                .param("id", UUID.fromString(taskId)).update();
        streamHolds(taskId, null, null, null);
        assertThat(task("tasks/get", taskId).at("/error/code").asInt()).isEqualTo(-32602);
        String unknown = UUID.randomUUID().toString();
        streamHolds(unknown, null, null, null);
        assertThat(task("tasks/get", unknown).at("/error/message").asString()).contains("not found");
    }

    @Test
    void cancellingAPendingTaskWithdrawsItsApproval() {
        String taskId = heldTask();
        when(withdrawals.withdraw(any(), any(), anyString(), eq(taskId), anyString()))
                .thenReturn(Mono.just(new ApprovalWithdrawals.Result(ApprovalWithdrawals.Outcome.WITHDRAWN, null)));
        JsonNode cancelled = task("tasks/cancel", taskId).get("result");
        assertThat(cancelled.get("status").asString()).isEqualTo("cancelled");
    }

    @Test
    void theTaskMethodsAreOnlyThereForARevisionThatHasThem() {
        String taskId = UUID.randomUUID().toString();
        assertThat(rpc(request(1, "tasks/get", params().put("taskId", taskId))).at("/error/code").asInt())
                .as("no version negotiated: the methods of before tasks").isEqualTo(-32601);
        // 2026-07-28 without the tasks extension declared: -32021, with that revision's status (400)
        byte[] refused = post(request(2, "tasks/get", stateless(params().put("taskId", taskId), params())),
                routing("tasks/get", taskId)).expectStatus().isBadRequest().expectBody().returnResult().getResponseBody();
        assertThat(IngressJson.REQUESTS.readTree(refused).at("/error/code").asInt()).isEqualTo(-32021);
    }
}
