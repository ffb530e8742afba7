package io.agentgateway.decisioncore.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.LimitReached;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A command refused because the workspace is at one of its limits: the reply {@code limited} with a text
 * that names the limit, and the audit entry {@link LimitReached}. The state is left as it was.
 */
public final class LimitRefusal {
    private static final Map<Class<?>, String> COMMAND_NAMES = commandNames();

    private LimitRefusal() {}

    /**
     * @param limit    the limit's wire name ({@code DecisionLimits.OPEN_APPROVALS}, ...)
     * @param cap      its value in force
     * @param message  what the caller is told: which limit, and how to make room
     */
    public static CommandResult refuse(CommandEnvelope envelope, WorkspaceState unchanged, String limit, long cap, String message) {
        LimitReached audit = new LimitReached(DerivedIds.auditLogId(envelope.commandId()), limit, cap,
                COMMAND_NAMES.get(envelope.command().getClass()), message);
        return new CommandResult(unchanged, ReplyStatus.LIMITED, message, null, List.of(audit), List.of());
    }

    private static Map<Class<?>, String> commandNames() {
        Map<Class<?>, String> names = new HashMap<>();
        Arrays.stream(Command.class.getAnnotation(JsonSubTypes.class).value())
                .forEach(type -> names.put(type.value(), type.name()));
        return Map.copyOf(names);
    }
}
