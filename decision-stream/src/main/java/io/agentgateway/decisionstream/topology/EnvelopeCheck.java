package io.agentgateway.decisionstream.topology;

import io.agentgateway.schemas.command.CommandEnvelope;
import java.util.Objects;
import java.util.Optional;

/** The fields every command must carry before any handler looks at it. */
final class EnvelopeCheck {
    private EnvelopeCheck() {}

    /** @return why the envelope cannot be decided, or empty when it can */
    static Optional<String> problem(String recordKey, CommandEnvelope envelope) {
        if (envelope == null) {
            return Optional.of("command envelope is empty");
        }
        if (blank(envelope.commandId())) {
            return Optional.of("commandId is required");
        }
        if (blank(envelope.workspaceId())) {
            return Optional.of("workspaceId is required");
        }
        if (recordKey != null && !Objects.equals(recordKey, envelope.workspaceId())) {
            // a command keyed by another workspace sits in another workspace's order: refuse it
            return Optional.of("the record key must be the workspaceId");
        }
        if (envelope.command() == null) {
            return Optional.of("Unsupported or malformed command");
        }
        if (envelope.acceptedAt() == null) {
            return Optional.of("acceptedAt is required");
        }
        if (envelope.actor() == null || envelope.actor().kind() == null) {
            return Optional.of("actor is required");
        }
        return Optional.empty();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
