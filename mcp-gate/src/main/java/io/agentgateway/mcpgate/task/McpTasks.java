package io.agentgateway.mcpgate.task;

import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpRevisions;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTask.ApprovalFacts;
import io.agentgateway.mcpgate.task.McpTaskRecords.Cursor;
import io.agentgateway.mcpgate.task.McpTaskRecords.Listed;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentgateway.actiongate.ApprovalWithdrawals;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.ReadModelFailures;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP tasks: a held {@code tools/call} answered as a task its client polls, instead of spec 4.3's text item, in both
 * revisions that have tasks (see {@link McpRevisions}).
 *
 * <p><b>Identity.</b> The task of a held call is its approval: the task id is the approval request id, and the task is
 * derived on every read from what the decision stream holds of the open approval ({@code check_access}, in log order)
 * and, once it ended, from the projector's read model. Nothing is held in memory, so every replica, and a restarted
 * one, answers it alike. A task is bound to the API key (and so the workspace) whose evaluation opened it: another key
 * gets the same "not found" as for an id that does not exist. The task of an allowed call a 2025-11-25 client asked
 * for as a task (the revision requires a task back) is its result, kept for {@code gateway.mcp.tasks.retention}
 * ({@link McpTaskRecords}; its id is the call's audit log id).
 *
 * <p><b>Lifecycle.</b> Pending, approved and running are {@code working}; executed is {@code completed} with the
 * upstream's {@code CallToolResult} (2025-11-25: {@code failed} when that result says {@code isError}, as the revision
 * says); rejected, expired, stopped by the kill switch or a paused tool, or failed without a result are {@code failed},
 * with the error the call would have been answered with (-32001 as a block, naming the reason; -32002 for a failed
 * run); withdrawn by the client ({@code tasks/cancel}) is {@code cancelled}.
 */
@Component
public class McpTasks {
    private static final Logger log = LoggerFactory.getLogger(McpTasks.class);
    private static final String CURSOR_PREFIX = "t1.";
    private static final Duration READ_MODEL_POLL = Duration.ofMillis(100);

    private final ConnectionAccess access;
    private final ApprovalWithdrawals withdrawals;
    private final McpTaskRecords records;
    private final McpTaskWatch watch;
    private final McpTaskProperties properties;
    /**
     * Allowed calls' tasks answered by this replica, so its client's next poll needs no read, and what it answers when
     * PostgreSQL could not keep one, or the result is larger than what is kept there (then only this replica knows it).
     * Bounded by the bytes of the results it holds; dropped after the retention.
     */
    private final Cache<UUID, LocalResult> answeredHere;
    private static final long LOCAL_RESULTS_MAX_BYTES = 64L * 1024 * 1024;

    private record LocalResult(String workspaceId, String keyHash, McpTask task, int bytes) {}

    /**
     * Held calls' tasks this replica handed out, by the key they were handed to, for as long as the projector may take
     * to show their approval: a task ended (withdrawn by a {@code tasks/cancel} racing its own {@code tasks/result},
     * say) before its row was projected is then waited for instead of answered "not found". It decides nothing: the
     * stream and the read model still say what the task is.
     */
    private final Cache<UUID, String> heldHere;
    private static final long HELD_HERE_MAX_TASKS = 100_000;

    McpTasks(ConnectionAccess access, ApprovalWithdrawals withdrawals, McpTaskRecords records, McpTaskWatch watch,
             McpTaskProperties properties) {
        this.access = access;
        this.withdrawals = withdrawals;
        this.records = records;
        this.watch = watch;
        this.properties = properties;
        this.answeredHere = Caffeine.newBuilder().maximumWeight(LOCAL_RESULTS_MAX_BYTES)
                .weigher((UUID id, LocalResult kept) -> Math.max(1, kept.bytes()))
                .expireAfterWrite(properties.retention()).build();
        this.heldHere = Caffeine.newBuilder().maximumSize(HELD_HERE_MAX_TASKS)
                .expireAfterWrite(properties.readModelWait().multipliedBy(2)).build();
    }

    // ---- creating tasks: the answers to a tools/call asked for as a task ----

    /**
     * The answer to a held {@code tools/call} asked for as a task: 2025-11-25's {@code CreateTaskResult} ({@code task},
     * and in {@code _meta} the text for the model and the evaluation), or 2026-07-28's flat one ({@code resultType:
     * "task"}). The approval is already in the decision stream's state, so {@code tasks/get} finds it at once. A
     * 2025-11-25 client with a stream open on this replica is told of its status changes.
     */
    public Mono<JsonNode> held(McpCaller caller, EvaluationOutcome outcome, Tasks revision) {
        return Mono.defer(() -> {
            Mono<McpTask> task = outcome.approvalCreatedAt() != null && outcome.approvalExpiresAt() != null
                    ? Mono.just(McpTask.ofApproval(new ApprovalFacts(outcome.approvalRequestId(), "pending",
                            outcome.approvalCreatedAt(), outcome.approvalCreatedAt(), outcome.approvalExpiresAt(), null, null,
                            null, null, caller.correlationId(), outcome.auditLogId(), outcome.matchedPolicyId(), true),
                            Instant.now(), properties.retention()))
                    // a decision service that does not say the approval's times yet: the stream's snapshot says them
                    : lookUp(caller, UUID.fromString(outcome.approvalRequestId()), "create");
            return task.map(created -> {
                heldHere.put(UUID.fromString(outcome.approvalRequestId()), caller.key().keyHash());
                ObjectNode service = IngressJson.RESPONSES.createObjectNode();
                service.put("status", "require_approval");
                service.put("approvalRequestId", outcome.approvalRequestId());
                service.put("auditLogId", outcome.auditLogId());
                service.put("correlationId", caller.correlationId());
                service.put("matchedPolicyId", outcome.matchedPolicyId());
                if (revision == Tasks.EXTENSION) {
                    ObjectNode result = created.toJson(Tasks.EXTENSION, properties.pollInterval());
                    result.put("resultType", "task");
                    result.putObject("_meta").set("service", service);
                    return result;
                }
                watch.follow(caller, caller.client(), created);
                ObjectNode result = IngressJson.RESPONSES.createObjectNode();
                result.set("task", created.toJson(Tasks.UTILITY, properties.pollInterval()));
                ObjectNode meta = result.putObject("_meta");
                meta.put(McpRevisions.MODEL_IMMEDIATE_RESPONSE, "This tool call needs a human approval before it runs"
                        + " (approval request " + outcome.approvalRequestId() + "); it is task " + created.taskId()
                        + ", and its result comes with the task once the call was approved and run.");
                meta.set("service", service);
                return result;
            });
        });
    }

    /**
     * 2025-11-25: an allowed {@code tools/call} asked for as a task ran at once; the answer is a task that has already
     * ended, whose {@code tasks/result} is {@code result} (what the call returned, with its evaluation). The result is
     * kept for the retention where every replica reads it; if PostgreSQL cannot keep it, this replica still answers it.
     */
    public Mono<JsonNode> allowedRan(McpCaller caller, EvaluationOutcome outcome, ObjectNode result) {
        UUID taskId = UUID.fromString(outcome.auditLogId());
        Instant now = Instant.now();
        McpTask task = McpTask.ofAllowedCall(taskId.toString(), now, properties.retention(), result);
        int bytes = IngressJson.RESPONSES.writeValueAsBytes(result).length;
        answeredHere.put(taskId, new LocalResult(caller.key().workspaceId().toString(), caller.key().keyHash(), task, bytes));
        if (bytes > properties.storedResultMaxBytes()) {
            log.info("[{}] the result of task {} ({} bytes) is over gateway.mcp.tasks.stored-result-max-bytes: only this"
                    + " replica answers it", caller.correlationId(), taskId, bytes);
            return Mono.just(created(task));
        }
        return Blocking.call(() -> {
                    records.keepAllowedResult(taskId, caller.key().workspaceId(), caller.key().keyHash(), now,
                            now.plus(properties.retention()), task.status(Tasks.UTILITY), result);
                    return Boolean.TRUE;
                })
                .onErrorResume(DataAccessException.class, failure -> {
                    log.warn("[{}] the result of task {} could not be kept in PostgreSQL ({}); only this replica answers it",
                            caller.correlationId(), taskId, ReadModelFailures.describe(failure));
                    return Mono.just(Boolean.FALSE);
                })
                .map(kept -> created(task));
    }

    /** 2025-11-25's {@code CreateTaskResult} of a task. */
    private JsonNode created(McpTask task) {
        ObjectNode answer = IngressJson.RESPONSES.createObjectNode();
        answer.set("task", task.toJson(Tasks.UTILITY, properties.pollInterval()));
        return answer;
    }

    /** 2025-11-25's {@code tools/list}: every tool the gate offers may be held, so each may be called as a task. */
    public static JsonNode withTaskSupport(JsonNode page) {
        if (page instanceof ObjectNode object && object.get("tools") instanceof ArrayNode tools) {
            for (JsonNode tool : tools) {
                if (tool instanceof ObjectNode toolObject) {
                    JsonNode execution = toolObject.get("execution");
                    ObjectNode executionObject = execution instanceof ObjectNode given ? given : toolObject.putObject("execution");
                    executionObject.put("taskSupport", "optional");
                }
            }
        }
        return page;
    }

    // ---- the task methods ----

    /** {@code tasks/get}: the task as it stands (2026-07-28: with its result or error inline once ended). */
    public Mono<JsonNode> get(McpCaller caller, ObjectNode params, Tasks revision) {
        return Mono.defer(() -> lookUp(caller, taskId(params, "retrieve"), "retrieve")
                .map(task -> task.toJson(revision, properties.pollInterval())));
    }

    /**
     * 2025-11-25's {@code tasks/result}: what the call returned, once the task ended; until then it waits (no thread
     * held) for at most {@code gateway.mcp.tasks.result-wait}, then answers -32603 saying the task is still working. The
     * wait listens for the task's end before the task is looked up ({@link McpTaskWatch#awaitEnd}).
     */
    public Mono<JsonNode> result(McpCaller caller, ObjectNode params) {
        return Mono.defer(() -> {
            UUID id = taskId(params, "retrieve");
            return watch.awaitEnd(caller, id, properties.resultWait(), lookUp(caller, id, "retrieve"))
                    .switchIfEmpty(Mono.defer(() -> lookUp(caller, id, "retrieve")))
                    .map(task -> {
                        if (!task.ended()) {
                            throw stillWorking(task);
                        }
                        return task.finalResult();
                    });
        });
    }

    /** 2025-11-25's {@code tasks/list}: this key's tasks, newest first, a page at a time. */
    public Mono<JsonNode> list(McpCaller caller, ObjectNode params) {
        return Mono.defer(() -> {
            Cursor after = cursor(params);
            int size = properties.listPageSize();
            return Blocking.call(() -> records.page(caller.key().workspaceId(), caller.key().keyHash(), after, size + 1))
                    .onErrorMap(DataAccessException.class, McpTasks::unreadable)
                    .map(rows -> {
                        Instant now = Instant.now();
                        ObjectNode answer = IngressJson.RESPONSES.createObjectNode();
                        ArrayNode tasks = answer.putArray("tasks");
                        rows.stream().limit(size).forEach(row -> tasks.add(task(row, now).toJson(Tasks.UTILITY, properties.pollInterval())));
                        if (rows.size() > size) {
                            Listed last = rows.get(size - 1);
                            answer.put("nextCursor", cursorOf(last));
                        }
                        return answer;
                    });
        });
    }

    /**
     * {@code tasks/cancel}: withdraws the task's approval while it is pending, in log order with its review
     * ({@code withdraw_approval}: only the key that asked may). 2025-11-25 answers the task, now {@code cancelled}, and
     * refuses a task that ended, or whose approval was granted already (its call runs), with -32602. 2026-07-28
     * answers an acknowledgement whatever became of it (cancellation is cooperative there); -32602 for an unknown task.
     */
    public Mono<JsonNode> cancel(McpCaller caller, ObjectNode params, Tasks revision) {
        return Mono.defer(() -> {
            UUID id = taskId(params, "cancel");
            return lookUp(caller, id, "cancel").flatMap(task -> {
                if (task.ended()) {
                    return revision == Tasks.EXTENSION ? Mono.just(acknowledged()) : Mono.error(alreadyEnded(task));
                }
                return withdrawals.withdraw(caller.key(), caller.agentId(), caller.correlationId(), id.toString(),
                                "Withdrawn by the agent with MCP tasks/cancel")
                        .flatMap(withdrawal -> {
                            if (withdrawal.outcome() == ApprovalWithdrawals.Outcome.WITHDRAWN) {
                                if (revision == Tasks.EXTENSION) {
                                    return Mono.just(acknowledged());
                                }
                                // the task as every later tasks/get shows it (the read model, once it has the end);
                                // should the projector be slower than read-model-wait, as the withdrawal made it
                                Instant withdrawn = Instant.now();
                                return lookUp(caller, id, "cancel", true)
                                        .onErrorResume(JsonRpcError.class, notYet -> Mono.just(task))
                                        .map(now -> now.ended() ? now : task.withdrawnAt(withdrawn))
                                        .map(now -> now.toJson(Tasks.UTILITY, properties.pollInterval()));
                            }
                            if (revision == Tasks.EXTENSION) {
                                return Mono.just(acknowledged());
                            }
                            // it was decided meanwhile, or it had been approved already: say what it is now
                            return lookUp(caller, id, "cancel").flatMap(now -> Mono.error(now.ended() ? alreadyEnded(now)
                                    : JsonRpcError.invalidParams("Cannot cancel task " + id + ": its approval was granted"
                                            + " and the call runs; it can no longer be withdrawn")));
                        });
            });
        });
    }

    /** 2026-07-28's {@code tasks/update}: no gate task ever asks its client for input, so an acknowledgement. */
    public Mono<JsonNode> update(McpCaller caller, ObjectNode params) {
        return Mono.defer(() -> lookUp(caller, taskId(params, "update"), "update").map(task -> acknowledged()));
    }

    // ---- finding a task ----

    /**
     * The task of this id that this caller's key asked for: first the decision stream, which holds it while it is open
     * and checks the key in log order ({@code check_access}, scope mcp: 401 as the error signal), then the read model,
     * then the kept results of allowed calls. -32602 "not found" for anything else, another key's task included.
     */
    private Mono<McpTask> lookUp(McpCaller caller, UUID id, String verb) {
        return lookUp(caller, id, verb, false);
    }

    /**
     * @param known whether the task is known to exist (this request just withdrew it): a read model that does not
     *              have it yet is then waited for too, up to {@code read-model-wait}, so that the answer is what every
     *              later read (on any replica) shows
     */
    private Mono<McpTask> lookUp(McpCaller caller, UUID id, String verb, boolean known) {
        LocalResult local = answeredHere.getIfPresent(id);
        boolean handedOutHere = caller.key().keyHash().equals(heldHere.getIfPresent(id));
        return access.lookUpApproval(caller.key().workspaceId(), caller.correlationId(),
                        Actor.apiKey(caller.key().keyHash(), caller.agentId()), Scope.MCP, id.toString())
                .flatMap(reply -> {
                    ApprovalSnapshot open = ours(reply.approval(), caller);
                    if (local != null && local.workspaceId().equals(caller.key().workspaceId().toString())
                            && local.keyHash().equals(caller.key().keyHash())) {
                        return Mono.just(local.task());
                    }
                    if (open != null && "pending".equals(open.status())) {
                        // the common poll while a human has not decided yet: nothing to read
                        return Mono.just(McpTask.ofApproval(snapshotFacts(open, Optional.empty()), Instant.now(),
                                properties.retention()));
                    }
                    return fromRecords(caller, id, open, Instant.now().plus(properties.readModelWait()),
                            known || handedOutHere);
                })
                .switchIfEmpty(Mono.error(() -> notFound(verb)))
                .onErrorMap(DataAccessException.class, McpTasks::unreadable);
    }

    /**
     * The task from the read model. When the stream no longer holds an approval the read model still shows open, its
     * end is being projected: read again (without holding a thread) until it shows or {@code read-model-wait} passed.
     */
    private Mono<McpTask> fromRecords(McpCaller caller, UUID id, ApprovalSnapshot open, Instant readUntil, boolean known) {
        return Blocking.call(() -> records.approval(caller.key().workspaceId(), caller.key().keyHash(), id))
                .flatMap(row -> {
                    Instant now = Instant.now();
                    if (open != null) {
                        return Mono.just(McpTask.ofApproval(snapshotFacts(open, row), now, properties.retention()));
                    }
                    if (row.isPresent()) {
                        McpTask task = McpTask.ofApproval(row.get(), now, properties.retention());
                        if (task.ended() || now.isAfter(readUntil)) {
                            return Mono.just(task);
                        }
                        return Mono.delay(READ_MODEL_POLL).then(fromRecords(caller, id, null, readUntil, known));
                    }
                    if (known && !now.isAfter(readUntil)) {
                        return Mono.delay(READ_MODEL_POLL).then(fromRecords(caller, id, null, readUntil, true));
                    }
                    return Blocking.call(() -> records.allowedResult(caller.key().workspaceId(), caller.key().keyHash(), id))
                            .flatMap(kept -> Mono.justOrEmpty(kept.map(found -> task(found, now))));
                });
    }

    /** The stream's snapshot of an open approval, with what the read model adds when it has the row already. */
    private static ApprovalFacts snapshotFacts(ApprovalSnapshot open, Optional<ApprovalFacts> row) {
        Instant created = open.createdAt();
        return new ApprovalFacts(open.approvalId(), open.status(), created,
                row.map(ApprovalFacts::updatedAt).orElse(created), open.expiresAt(),
                row.map(ApprovalFacts::reviewedBy).orElse(null), row.map(ApprovalFacts::reviewReason).orElse(null), null,
                null, row.map(ApprovalFacts::correlationId).orElse(null), row.map(ApprovalFacts::auditLogId).orElse(null),
                row.map(ApprovalFacts::matchedPolicyId).orElse(null), true);
    }

    /** The snapshot when it is a held tools/call this caller's key asked for; null otherwise. */
    private static ApprovalSnapshot ours(ApprovalSnapshot snapshot, McpCaller caller) {
        return snapshot != null && snapshot.createdAt() != null && snapshot.expiresAt() != null
                && snapshot.heldCallKind() == HeldCallKind.MCP_TOOL_CALL
                && caller.key().keyHash().equals(snapshot.requestedByKeyHash()) ? snapshot : null;
    }

    private McpTask task(Listed row, Instant now) {
        return row.approval() != null ? McpTask.ofApproval(row.approval(), now, properties.retention())
                : McpTask.ofAllowedCall(row.taskId(), row.createdAt(), properties.retention(), row.allowedResult());
    }

    // ---- params and answers ----

    private static UUID taskId(ObjectNode params, String verb) {
        JsonNode given = params == null ? null : params.get("taskId");
        if (given == null || !given.isString()) {
            throw JsonRpcError.invalidParams("params.taskId must be a string");
        }
        try {
            UUID id = UUID.fromString(given.asString());
            if (!id.toString().equals(given.asString())) {
                throw notFound(verb);
            }
            return id;
        } catch (IllegalArgumentException notOurs) {
            throw notFound(verb);
        }
    }

    private static JsonRpcError notFound(String verb) {
        return JsonRpcError.invalidParams("Failed to " + verb + " task: Task not found");
    }

    private static JsonRpcError alreadyEnded(McpTask task) {
        return JsonRpcError.invalidParams("Cannot cancel task: already in terminal status '" + task.status(Tasks.UTILITY) + "'");
    }

    private JsonRpcError stillWorking(McpTask task) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("taskId", task.taskId());
        data.put("status", "working");
        data.put("statusMessage", task.statusMessage());
        return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Task " + task.taskId() + " is still working after "
                + properties.resultWait().toSeconds() + " s; call tasks/result again, or poll tasks/get until it has ended",
                data);
    }

    private static JsonRpcError unreadable(DataAccessException failure) {
        return JsonRpcError.internal("The gateway's task records cannot be read right now; try again",
                ReadModelFailures.describe(failure));
    }

    private static ObjectNode acknowledged() {
        return IngressJson.RESPONSES.createObjectNode();
    }

    private static Cursor cursor(ObjectNode params) {
        JsonNode given = params == null ? null : params.get("cursor");
        if (given == null || given.isNull()) {
            return null;
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(given.asString()), StandardCharsets.UTF_8);
            if (!text.startsWith(CURSOR_PREFIX)) {
                throw new IllegalArgumentException("not a task cursor");
            }
            String[] parts = text.substring(CURSOR_PREFIX.length()).split("/", 2);
            return new Cursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
        } catch (RuntimeException invalid) {
            throw JsonRpcError.invalidParams("Invalid cursor");
        }
    }

    private static String cursorOf(Listed last) {
        String text = CURSOR_PREFIX + last.createdAt() + "/" + last.taskId();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
