package io.agentgateway.decisioncore.condition;

import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;

/**
 * What conditions read of a command beyond its evaluation fields, taken from the command as the log holds it: the
 * one reading the stream, replay, the back-test and the policy test share.
 */
public final class CommandFacts {
    private CommandFacts() {}

    /**
     * An evaluation's facts. Arguments: the entry point's {@link ConditionInputs#arguments()} when it sent condition
     * inputs; otherwise the payload, which is the whole arguments for evaluate-action (whose call view only shows
     * reviewers that payload), but only a view or an excerpt for an entry point that holds the call itself (a held call
     * is set: the proxy, the MCP gate before conditions): those arguments are then unavailable, and a condition
     * reading them fails closed.
     */
    public static ActionFacts of(CommandEnvelope envelope, EvaluateAction command) {
        ConditionInputs inputs = command.conditionInputs();
        if (inputs != null) {
            String unavailable = inputs.arguments() == null && inputs.argumentsBytes() != null
                    ? "args were not carried: " + inputs.argumentsBytes()
                            + " bytes, over the entry point's limit (a condition that reads args fails closed)"
                    : null;
            return new ActionFacts(inputs.arguments(), unavailable, inputs.request(), inputs.target(), inputs.unresolved(),
                    command.requestedBy(), command.agentName(), envelope.acceptedAt());
        }
        boolean payloadIsAView = command.heldCall() != null;
        return new ActionFacts(payloadIsAView ? null : command.payload(),
                payloadIsAView ? "args were not carried: this entry point sent only an excerpt of them" : null,
                null, null, null, command.requestedBy(), command.agentName(), envelope.acceptedAt());
    }

    /** A webhook's facts: its verified payload whole. */
    public static ActionFacts of(CommandEnvelope envelope, ReceiveWebhook command) {
        return new ActionFacts(command.payload(), null, null, null, null, null, null, envelope.acceptedAt());
    }
}
