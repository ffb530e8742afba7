package io.agentgateway.actiongate;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.WithdrawApproval;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * How an agent withdraws its own pending approval (the MCP gate's {@code tasks/cancel}): a {@code withdraw_approval}
 * command as that API key, decided by the stream in log order with the approval's review. The stream alone judges
 * whether the key may (it must be the key that opened the approval); this only reads its answer.
 */
@Component
public class ApprovalWithdrawals {
    /** What became of a withdrawal. */
    public enum Outcome {
        /** The approval ended withdrawn: its call never runs. */
        WITHDRAWN,
        /** The workspace holds no open approval of this id opened by this key (never, not any more, or another key's). */
        NOT_FOUND,
        /** It is open but no longer pending (approved or running; the stream's text says which), or it expired now. */
        NOT_PENDING
    }

    /** The outcome, and the stream's text when it refused. */
    public record Result(Outcome outcome, String error) {}

    private final CommandGateway gateway;

    ApprovalWithdrawals(CommandGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * @return the outcome; as the error signal 401 {@code Invalid or expired API key} ({@link ApiException}) for a key
     *         that may not act, or a failure to have it decided ({@code DecisionServiceUnavailableException},
     *         {@code DecisionTimeoutException})
     */
    public Mono<Result> withdraw(ApiKeyCredential key, String agentId, String correlationId, String approvalId, String reason) {
        return gateway.send(key.workspaceId().toString(), correlationId, Actor.apiKey(key.keyHash(), agentId),
                        new WithdrawApproval(approvalId, reason))
                .map(reply -> {
                    ReplyStatus status = reply.status();
                    if (status == ReplyStatus.OK) {
                        return new Result(Outcome.WITHDRAWN, null);
                    }
                    if (status == ReplyStatus.NOT_FOUND) {
                        return new Result(Outcome.NOT_FOUND, reply.error());
                    }
                    if (status == ReplyStatus.CONFLICT) {
                        return new Result(Outcome.NOT_PENDING, reply.error());
                    }
                    if (status == ReplyStatus.UNAUTHORIZED) {
                        throw ApiException.unauthorized(ErrorMessages.INVALID_API_KEY);
                    }
                    throw new IllegalStateException("withdraw_approval answered " + status + ": " + reply.error());
                });
    }
}
