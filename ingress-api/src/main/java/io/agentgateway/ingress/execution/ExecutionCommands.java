package io.agentgateway.ingress.execution;

import io.agentgateway.ingress.gateway.CommandGateway;
import io.agentgateway.ingress.gateway.DecisionServiceUnavailableException;
import io.agentgateway.ingress.gateway.DecisionTimeoutException;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The executor's two commands, sent as the gateway itself (a system actor) and waited for. While the
 * decision stream does not answer, a command is sent again with the same command id: if the first
 * copy was decided after all, the retry gets that same decision back (the stream's dedupe), so a
 * claim granted to a reply that was lost is still ours, never granted twice.
 */
final class ExecutionCommands {
    private static final Logger log = LoggerFactory.getLogger(ExecutionCommands.class);
    static final Actor EXECUTOR = Actor.system("approval-executor");

    private final CommandGateway gateway;
    private final String executorId;
    private final int attempts;

    ExecutionCommands(CommandGateway gateway, String executorId, int attempts) {
        this.gateway = gateway;
        this.executorId = executorId;
        this.attempts = attempts;
    }

    String executorId() {
        return executorId;
    }

    /**
     * The granted claim's reply (it carries the connection the call runs with), empty when this executor
     * did not win the one run of the approval: claimed by another, ended, or cancelled because the
     * workspace is killed or the tool paused.
     */
    Optional<Reply> claim(String workspaceId, String correlationId, String approvalId) {
        Reply reply = send(workspaceId, correlationId, new ClaimApprovedCall(approvalId, executorId));
        if (reply.status() != ReplyStatus.OK) {
            log.info("approval {}: not claimed ({} {})", approvalId, reply.status().wire(), reply.error());
            return Optional.empty();
        }
        return Optional.of(reply);
    }

    void record(String workspaceId, String correlationId, String approvalId, ExecutionOutcome outcome, JsonNode result) {
        Reply reply = send(workspaceId, correlationId, new RecordCallExecution(approvalId, executorId, outcome, result));
        if (reply.status() != ReplyStatus.OK) {
            log.error("approval {}: the decision stream refused its outcome {} ({} {})", approvalId, outcome.wire(),
                    reply.status().wire(), reply.error());
        }
    }

    /** @throws ExecutionCommandException when the decision stream did not answer any attempt */
    private Reply send(String workspaceId, String correlationId, Command command) {
        String commandId = UUID.randomUUID().toString();
        RuntimeException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            try {
                return gateway.send(commandId, workspaceId, correlationId, EXECUTOR, command).block();
            } catch (DecisionTimeoutException | DecisionServiceUnavailableException e) {
                last = e;
                log.warn("{} of command {}: no answer on attempt {} of {} ({})", command.getClass().getSimpleName(),
                        commandId, attempt, attempts, e.getClass().getSimpleName());
                pause(Duration.ofMillis(500L * attempt));
            }
        }
        throw new ExecutionCommandException(command.getClass().getSimpleName() + " " + commandId
                + " got no answer in " + attempts + " attempts", last);
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
