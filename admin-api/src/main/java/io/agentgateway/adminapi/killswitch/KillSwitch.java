package io.agentgateway.adminapi.killswitch;

import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.SetKillSwitch;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * The kill switch and the per-tool pauses (spec 4.2), for every client of them (the kill-switch endpoint, the
 * console): one {@code set_kill_switch} command through the decision stream, which checks the admin or owner role in
 * log order and applies it; and the state as the read model shows it. {@link Applied} comes only after the stream
 * applied the change, so every later command of the workspace sees it; a refusal is an {@link ApiException} with the
 * stream's words (403 not admin or owner, or no such workspace; 400 invalid). No reply in time is the gateway's usual
 * error: nothing is taken as applied.
 */
@Service
public class KillSwitch {
    public static final int MAX_REASON_LENGTH = 2000;

    /** The state: whether the switch is on, and the paused tools (sorted). */
    public record State(boolean killSwitchEnabled, List<String> pausedTools) {}

    private final CommandGateway gateway;
    private final KillSwitchRepository states;

    KillSwitch(CommandGateway gateway, KillSwitchRepository states) {
        this.gateway = gateway;
        this.states = states;
    }

    /** The projected state; 404 when the workspace does not exist. */
    public Mono<State> state(UUID workspaceId) {
        return Blocking.call(() -> states.state(workspaceId).orElseThrow(AdminRefusals::workspaceNotFound));
    }

    /**
     * @param tool   the tool of {@code pause_tool} / {@code resume_tool} (ignored otherwise)
     * @param reason why (optional; blank: none), at most {@value #MAX_REASON_LENGTH} characters
     */
    public Mono<Applied> apply(AuthenticatedUser user, UUID workspaceId, KillSwitchAction action, Tool tool, String reason,
                               String correlationId) {
        Objects.requireNonNull(action, "action");
        if (reason != null && reason.length() > MAX_REASON_LENGTH) {
            return Mono.error(ApiException.badRequest("reason must be at most " + MAX_REASON_LENGTH + " characters"));
        }
        SetKillSwitch command = new SetKillSwitch(action, tool, reason == null || reason.isBlank() ? null : reason);
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), command).flatMap(reply -> {
            ReplyStatus status = reply.status();
            if (status == null) {
                return Mono.error(new IllegalStateException("reply to command " + reply.commandId() + " has no status"));
            }
            String text = reply.error() == null || reply.error().isBlank() ? String.valueOf(status) : reply.error();
            return switch (status) {
                case OK -> Mono.just(Applied.of(reply));
                case FORBIDDEN, UNAUTHORIZED, NOT_FOUND -> Mono.error(ApiException.forbidden(text));
                default -> Mono.error(ApiException.badRequest(text));
            };
        });
    }
}
