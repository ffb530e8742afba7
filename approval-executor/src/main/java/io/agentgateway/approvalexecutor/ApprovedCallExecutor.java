package io.agentgateway.approvalexecutor;

import io.agentgateway.approvalexecutor.HeldCallRepository.HeldCallRow;
import io.agentgateway.actiongate.heldcall.ExecutionResults;
import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HeldCallRunner;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.httpedge.web.ReadModelFailures;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import org.apache.kafka.common.header.Headers;
import reactor.core.publisher.Mono;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import tools.jackson.databind.JsonNode;

/**
 * Runs an approved held call at most once, on the thread that delivered its {@code ApprovalReviewed}:
 * <ol>
 *   <li>a runner for the call's kind must exist (else the approval stays approved for a later runner);</li>
 *   <li>the sealed call is read from the read model, waiting for the projector if need be; an approval
 *       that ended or was claimed meanwhile is left alone (a replayed event stops here, cheaply);</li>
 *   <li>{@code ClaimApprovedCall}: only the one granted claim runs it, whoever else tries; the stream
 *       refuses it (and cancels the approval) while the workspace is killed or the tool paused, and a
 *       grant carries the connection the call runs with;</li>
 *   <li>the call is opened and checked against the approval's digest (from the decision stream's own
 *       event, not from the table the sealed text came from), then run;</li>
 *   <li>{@code RecordCallExecution}: executed with the result, or failed with the reason.</li>
 * </ol>
 * Nothing here ever runs a call twice: a crash or a lost answer after the claim leaves the approval
 * executing for good (DESIGN.md: at most once), never re-run. Nothing here throws, so the event's offset is
 * committed whatever happened (redelivering it could not run the call anyway), except before a claim was granted
 * ({@link NotClaimedYet}): the read model cannot be reached, or the claim got no answer from the decision stream.
 * The event is then delivered again until both answer, instead of the approval staying approved, its call never
 * run. A claim that got no answer is sent again under its first command id ({@link ExecutionCommands}), so if the
 * first one was granted after all, the grant comes back to this executor (the read model then says executing), and
 * the call runs once.
 */
final class ApprovedCallExecutor {
    private static final Logger log = LoggerFactory.getLogger(ApprovedCallExecutor.class);
    private static final Duration POLL = Duration.ofMillis(250);
    /** Beyond the runner's own timeout: a runner that never completes must not hold the consumer forever. */
    private static final Duration RUN_GRACE = Duration.ofSeconds(5);

    private final HeldCallRunners runners;
    private final HeldCallRepository heldCalls;
    private final HeldCallSeals seals;
    private final ExecutionCommands commands;
    private final ExecutorProperties properties;
    private final GatewayTracing tracing;

    ApprovedCallExecutor(HeldCallRunners runners, HeldCallRepository heldCalls, HeldCallSeals seals,
                         ExecutionCommands commands, ExecutorProperties properties, GatewayTracing tracing) {
        this.tracing = tracing;
        this.runners = runners;
        this.heldCalls = heldCalls;
        this.seals = seals;
        this.commands = commands;
        this.properties = properties;
    }

    /** Whether this event asks for a run at all. */
    static boolean asksForARun(ApprovalReviewed reviewed) {
        return reviewed.verdict() == ReviewVerdict.APPROVE && reviewed.heldCallKind() != null;
    }

    /**
     * @param headers the review event's record headers: while tracing is on, the execution's span is a child of the
     *                review that approved it (its trace context) and links to the request that was held
     */
    void execute(EventEnvelope envelope, ApprovalReviewed reviewed, Headers headers) {
        if (!tracing.enabled()) {
            execute(envelope, reviewed, (Span) null);
            return;
        }
        Span span = tracing.tracer().spanBuilder("execute approved call").setSpanKind(SpanKind.CONSUMER)
                .setParent(TraceHeaders.extract(headers)).startSpan();
        GatewayAttributes.event(span, envelope);
        try (Scope current = span.makeCurrent()) {
            execute(envelope, reviewed, span);
        } catch (RuntimeException e) {
            ReactorTracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private void execute(EventEnvelope envelope, ApprovalReviewed reviewed, Span span) {
        String approvalId = reviewed.approvalId();
        try {
            Optional<HeldCallRunner> runner = runners.forKind(reviewed.heldCallKind());
            if (runner.isEmpty()) {
                log.warn("approval {}: no runner for held calls of kind {}; it stays approved", approvalId,
                        reviewed.heldCallKind().wire());
                return;
            }
            Optional<HeldCallSeal> opener = seals.opener();
            if (opener.isEmpty()) {
                log.error("approval {}: gateway.secrets.key is not set, the held call cannot be opened; it stays approved",
                        approvalId);
                return;
            }
            Optional<HeldCallRow> row;
            try {
                row = awaitHeldCall(envelope.workspaceId(), approvalId);
            } catch (DataAccessException failure) {
                String why = ReadModelFailures.whyUnavailable(failure);
                if (why == null) {
                    throw failure;
                }
                throw NotClaimedYet.readModelUnreachable(approvalId, why, failure);
            }
            if (span != null && row.isPresent()) {
                linkToHeldRequest(span, row.get());
            }
            if (row.isEmpty() || !row.get().claimable(commands.claimUnanswered(approvalId))) {
                log.info("approval {}: nothing to run ({})", approvalId,
                        row.map(r -> "status " + r.status()).orElse("not in the read model after " + properties.heldCallWait()));
                return;
            }
            Optional<Reply> claim;
            try {
                claim = commands.claim(envelope.workspaceId(), envelope.correlationId(), approvalId);
            } catch (ExecutionCommands.ExecutionCommandException unanswered) {
                throw NotClaimedYet.claimUnanswered(approvalId, unanswered);
            }
            if (claim.isEmpty()) {
                return;
            }
            Run run = run(envelope, reviewed, row.get(), opener.get(), runner.get(), claim.get().connection());
            commands.record(envelope.workspaceId(), envelope.correlationId(), approvalId, run.outcome(), run.result());
            log.info("approval {}: {} by {}", approvalId, run.outcome().wire(), commands.executorId());
        } catch (NotClaimedYet beforeTheClaim) {
            throw beforeTheClaim;
        } catch (RuntimeException e) {
            // the message could quote the call: the class and where it happened say enough
            log.error("approval {}: execution stopped by {}; if it was claimed it stays executing and is not run again",
                    approvalId, e.getClass().getName());
        }
    }

    private record Run(ExecutionOutcome outcome, JsonNode result) {}

    /**
     * The held request is another trace (the review caused this run), so the run links to it rather than being its
     * child: a trace backend leads from the run to the request that was held.
     */
    private static void linkToHeldRequest(Span span, HeldCallRow row) {
        SpanContext held = TraceHeaders.parse(row.heldTraceParent());
        if (held.isValid()) {
            span.addLink(held, Attributes.of(GatewayAttributes.LINK_ROLE, "held_request"));
        }
    }

    /**
     * Nothing was run and no grant reached this executor yet, for a reason that passes: thrown out of the listener so
     * the event is delivered again (ApprovalExecutorConfiguration's error handler waits), never swallowed. Either the
     * held call could not be read because PostgreSQL cannot be reached (or its schema is behind), or the claim got no
     * answer from the decision stream. Says SQLStates, classes and ids only: a message could quote a statement.
     */
    static final class NotClaimedYet extends RuntimeException {
        private NotClaimedYet(String message) {
            super(message, null, false, false);
        }

        static NotClaimedYet readModelUnreachable(String approvalId, String why, DataAccessException failure) {
            return new NotClaimedYet("approval " + approvalId + ": the held call cannot be read, the read model is "
                    + why + " (" + ReadModelFailures.describe(failure) + ")");
        }

        static NotClaimedYet claimUnanswered(String approvalId, ExecutionCommands.ExecutionCommandException failure) {
            return new NotClaimedYet("approval " + approvalId + ": the decision stream did not answer its claim ("
                    + failure.getMessage() + "); the claim is asked again under the same command id");
        }
    }

    /** Opens, verifies and runs the call: a result whatever happens, never an exception. */
    private Run run(EventEnvelope envelope, ApprovalReviewed reviewed, HeldCallRow row, HeldCallSeal opener,
                    HeldCallRunner runner, ToolConnection connection) {
        HeldCall call;
        try {
            call = opener.open(new SealedHeldCall(row.kind(), row.sealed(), reviewed.callDigest()), reviewed.tool(),
                    reviewed.action(), reviewed.callDigest());
        } catch (IllegalArgumentException refused) {
            // HeldCallSeal's messages never quote the call
            return new Run(ExecutionOutcome.FAILED, ExecutionResults.failure("Not run: " + refused.getMessage()));
        }
        HeldCallContext context = new HeldCallContext(envelope.workspaceId(), reviewed.approvalId(), reviewed.tool(),
                reviewed.action(), envelope.correlationId(), connection);
        try {
            Mono<JsonNode> running = runner.run(context, call);
            if (tracing.enabled()) {
                // the upstream call's span is a child of this run, whichever thread its pipeline moves to
                io.opentelemetry.context.Context current = io.opentelemetry.context.Context.current();
                running = running.contextWrite(pipeline -> pipeline.put(ReactorTracing.KEY, current));
            }
            JsonNode result = running.block(properties.httpTimeout().plus(RUN_GRACE));
            return result == null
                    ? new Run(ExecutionOutcome.FAILED, ExecutionResults.failure("The call returned no result"))
                    : new Run(ExecutionOutcome.EXECUTED, result);
        } catch (RuntimeException e) {
            return new Run(ExecutionOutcome.FAILED, ExecutionResults.failure(describe(e)));
        }
    }

    private Optional<HeldCallRow> awaitHeldCall(String workspaceId, String approvalId) {
        UUID workspace = UUID.fromString(workspaceId);
        UUID approval = UUID.fromString(approvalId);
        Instant deadline = Instant.now().plus(properties.heldCallWait());
        while (true) {
            Optional<HeldCallRow> row = heldCalls.find(workspace, approval);
            if (row.isPresent() || Instant.now().isAfter(deadline)) {
                return row;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    /** The failure's text for the execution result: what went wrong, in the runner's words. */
    private static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return "No answer from the upstream in time";
            }
        }
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
