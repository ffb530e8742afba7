package io.agentgateway.actiongate;

import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.command.EvaluationOutcome;

/**
 * The decision stream's answer to an {@link ActionIntent}, as every entry point reads it: a decision (with the
 * connection the decided call goes out with), a webhook delivery the workspace had recorded before, or nothing sent
 * because the entry point withdrew its command when it was prepared from the current connection. A refusal (the key,
 * the agent, a limit, an invalid request) is never a value: it is the error signal the gate maps it to.
 *
 * @param connection the connection the command was prepared from (the current one as of the answer); null when it
 *                   named none
 * @param outcome    the stream's evaluation: never null for a decided {@code EvaluateAction}; null for a webhook
 *                   delivery and when nothing was sent
 */
public record GateDecision(Kind kind, Known connection, EvaluationOutcome outcome) {

    public enum Kind {
        /** The stream decided (for a webhook: recorded and evaluated it). */
        DECIDED,
        /** The workspace had recorded this webhook delivery before: nothing was evaluated again. */
        DUPLICATE,
        /** The entry point withdrew the command when it was prepared from the current connection: nothing was sent. */
        WITHDRAWN
    }

    public Decision decision() {
        if (outcome == null) {
            throw new IllegalStateException("no decision: " + kind);
        }
        return outcome.decision();
    }

    public boolean withdrawn() {
        return kind == Kind.WITHDRAWN;
    }

    public boolean duplicate() {
        return kind == Kind.DUPLICATE;
    }
}
