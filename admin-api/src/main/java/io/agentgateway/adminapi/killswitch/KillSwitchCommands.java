package io.agentgateway.adminapi.killswitch;

import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.SetKillSwitch;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The kill switch and the per-tool pauses (spec 4.2), for every client of them (the kill-switch endpoint, the
 * console): one {@code set_kill_switch} command through the decision stream, which checks the admin or owner role in
 * log order and applies it. The answer comes only after the stream applied the change, so {@link Kind#APPLIED} means
 * every later command of the workspace sees it. No reply in time is the gateway's usual error: nothing is taken as
 * applied.
 */
@Component
public class KillSwitchCommands {
    public static final int MAX_REASON_LENGTH = 2000;

    /** What became of a kill-switch command. */
    public enum Kind { APPLIED, FORBIDDEN, INVALID }

    /**
     * @param message          why it was not applied (the stream's words), else null
     * @param workspaceVersion the workspace version after the change (what a reader waits for the read model to show),
     *                         or null
     */
    public record Outcome(Kind kind, String message, Long workspaceVersion) {
        public Outcome(Kind kind, String message) {
            this(kind, message, null);
        }

        public boolean applied() {
            return kind == Kind.APPLIED;
        }
    }

    private final CommandGateway gateway;

    KillSwitchCommands(CommandGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * @param tool   the tool of {@code pause_tool} / {@code resume_tool} (ignored otherwise)
     * @param reason why (optional; blank: none), at most {@value #MAX_REASON_LENGTH} characters
     */
    public Mono<Outcome> apply(AuthenticatedUser user, UUID workspaceId, KillSwitchAction action, Tool tool, String reason,
                               String correlationId) {
        Objects.requireNonNull(action, "action");
        if (reason != null && reason.length() > MAX_REASON_LENGTH) {
            return Mono.just(new Outcome(Kind.INVALID, "reason must be at most " + MAX_REASON_LENGTH + " characters"));
        }
        SetKillSwitch command = new SetKillSwitch(action, tool, reason == null || reason.isBlank() ? null : reason);
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), command).flatMap(reply -> {
            ReplyStatus status = reply.status();
            if (status == null) {
                return Mono.error(new IllegalStateException("reply to command " + reply.commandId() + " has no status"));
            }
            String text = reply.error() == null || reply.error().isBlank() ? String.valueOf(status) : reply.error();
            return Mono.just(switch (status) {
                case OK -> new Outcome(Kind.APPLIED, null, reply.workspaceVersion());
                case FORBIDDEN, UNAUTHORIZED, NOT_FOUND -> new Outcome(Kind.FORBIDDEN, text);
                default -> new Outcome(Kind.INVALID, text);
            });
        });
    }
}
