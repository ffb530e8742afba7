package io.agentgateway.approvalexecutor;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The executor's two commands, sent as the gateway itself (a system actor) and waited for. While the
 * decision stream does not answer, a command is sent again with the same command id: if the first
 * copy was decided after all, the retry gets that same decision back (the stream's dedupe), so a
 * claim granted to a reply that was lost is still ours, never granted twice.
 *
 * <p>A claim that got no answer at all keeps its command id for this executor's next try at the same approval
 * (the event delivered again): only a claim whose answer never arrived is asked again under its id, and such a
 * claim never ran anything here, so a grant it gets back is the one run. Once any answer arrived the id is
 * dropped, and a later try (a replayed event) is a new claim, which the stream refuses.
 */
final class ExecutionCommands {
    private static final Logger log = LoggerFactory.getLogger(ExecutionCommands.class);
    static final Actor EXECUTOR = Actor.system("approval-executor");
    /** Longest pause between two attempts. */
    private static final Duration MAX_PAUSE = Duration.ofSeconds(5);

    private final CommandGateway gateway;
    private final String executorId;
    private final int attempts;
    private final Duration recordPatience;
    /**
     * Approval id → the command id of this executor's claim that got no answer. One entry per approval whose claim
     * went unanswered, removed at its answer: a handful while the decision stream is away, none otherwise.
     */
    private final ConcurrentMap<String, String> unansweredClaims = new ConcurrentHashMap<>();

    /**
     * @param attempts       tries at a command before it counts as unanswered
     * @param recordPatience how long an outcome is offered beyond those tries: the call ran, and its outcome is what
     *                       the audit log is missing without it
     */
    ExecutionCommands(CommandGateway gateway, String executorId, int attempts, Duration recordPatience) {
        this.gateway = gateway;
        this.executorId = executorId;
        this.attempts = attempts;
        this.recordPatience = recordPatience;
    }

    String executorId() {
        return executorId;
    }

    /** Whether this executor sent a claim for the approval that was never answered (it may have been granted). */
    boolean claimUnanswered(String approvalId) {
        return unansweredClaims.containsKey(approvalId);
    }

    /**
     * The granted claim's reply (it carries the connection the call runs with), empty when this executor
     * did not win the one run of the approval: claimed by another, ended, or cancelled because the
     * workspace is killed or the tool paused.
     *
     * @throws ExecutionCommandException when no attempt was answered: the claim's id is kept for the next try
     */
    Optional<Reply> claim(String workspaceId, String correlationId, String approvalId) {
        String commandId = unansweredClaims.computeIfAbsent(approvalId, id -> UUID.randomUUID().toString());
        Reply reply = send(workspaceId, correlationId, commandId, new ClaimApprovedCall(approvalId, executorId), Duration.ZERO);
        unansweredClaims.remove(approvalId);
        if (reply.status() != ReplyStatus.OK) {
            log.info("approval {}: not claimed ({} {})", approvalId, reply.status().wire(), reply.error());
            return Optional.empty();
        }
        return Optional.of(reply);
    }

    /** @throws ExecutionCommandException when no attempt was answered within the attempts and the record patience */
    void record(String workspaceId, String correlationId, String approvalId, ExecutionOutcome outcome, JsonNode result) {
        Reply reply = send(workspaceId, correlationId, UUID.randomUUID().toString(),
                new RecordCallExecution(approvalId, executorId, outcome, result), recordPatience);
        if (reply.status() != ReplyStatus.OK) {
            log.error("approval {}: the decision stream refused its outcome {} ({} {})", approvalId, outcome.wire(),
                    reply.status().wire(), reply.error());
        }
    }

    /**
     * Sends until answered: at least {@code attempts} times, and for {@code patience} after the first send. The
     * attempts say so at WARN, what patience adds at DEBUG (one line per attempt for minutes says nothing new).
     */
    private Reply send(String workspaceId, String correlationId, String commandId, Command command, Duration patience) {
        Instant patientUntil = Instant.now().plus(patience);
        RuntimeException last = null;
        int attempt = 0;
        while (attempt < attempts || Instant.now().isBefore(patientUntil)) {
            attempt++;
            try {
                return gateway.send(commandId, workspaceId, correlationId, EXECUTOR, command).block();
            } catch (DecisionTimeoutException | DecisionServiceUnavailableException e) {
                last = e;
                if (attempt <= attempts) {
                    log.warn("{} of command {}: no answer on attempt {} of {}{} ({})", command.getClass().getSimpleName(),
                            commandId, attempt, attempts, patience.isZero() ? "" : ", then for up to " + patience,
                            e.getClass().getSimpleName());
                } else {
                    log.debug("{} of command {}: no answer on attempt {}", command.getClass().getSimpleName(), commandId,
                            attempt);
                }
                pause(Duration.ofMillis(Math.min(500L * attempt, MAX_PAUSE.toMillis())));
            }
        }
        throw new ExecutionCommandException(command.getClass().getSimpleName() + " " + commandId
                + " got no answer in " + attempt + " attempts", last);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExecutionCommandException("interrupted while waiting to retry", e);
        }
    }

    static final class ExecutionCommandException extends RuntimeException {
        ExecutionCommandException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
