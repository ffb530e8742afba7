package io.agentgateway.actiongate;

import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.actiongate.connection.ToolConnectionView;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.ReplyErrors;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.Reply;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * How entry points use the {@link ToolConnectionView} with the decision stream: commands whose
 * execution uses a connection are sent naming the version the view holds, and a {@code stale} answer
 * is adopted and the command prepared and sent once more from the connection it carries (a new command
 * id); still stale → 503, nothing sent upstream. {@code check_access} authorizes an API key in log
 * order for entry points that act without a decision of their own (MCP tools/list, the status endpoint,
 * the proxy before it says a connection cannot be used), confirming the connection on the way.
 */
@Component
public class ConnectionAccess {
    static final String KEPT_CHANGING = "the tool connection changed again while the request was being decided";

    private final CommandGateway gateway;
    private final ToolConnectionView view;

    public ConnectionAccess(CommandGateway gateway, ToolConnectionView view) {
        this.gateway = gateway;
        this.view = view;
    }

    /** What a command was prepared from, and the stream's answer to it (null when nothing was sent). */
    record Sent(Known connection, Reply reply) {}

    /** The view's connection of the workspace's tool, as it stands (not yet confirmed by the stream). */
    public Known known(UUID workspaceId, Tool tool) {
        return view.known(workspaceId, tool);
    }

    /**
     * Asks the stream whether the actor may act (an API key for {@code scope}, any scope when null; the
     * gateway itself always) and whether the view's connection to {@code tool} is current, adopting the
     * current one if not.
     *
     * @return the workspace's current connection to the tool as of the answer
     * @throws io.agentgateway.httpedge.web.ApiException (as the error signal) 401 when the key may not act
     */
    public Mono<Known> authorize(UUID workspaceId, String correlationId, Actor actor, Scope scope, Tool tool) {
        return Mono.defer(() -> {
            Known held = view.known(workspaceId, tool);
            return gateway.send(workspaceId.toString(), correlationId, actor,
                            new CheckAccess(scope, tool, held.version(), null))
                    .map(reply -> reply.status() == ReplyStatus.STALE
                            ? view.adopt(workspaceId, tool, reply)
                            : view.adopt(workspaceId, tool, confirmed(held, ReplyErrors.requireOk(reply, ErrorMessages.INVALID_API_KEY))));
        });
    }

    /**
     * The status endpoint's question: may this key (any scope) read, and does the workspace hold the
     * approval (its snapshot on the reply while it is open).
     */
    public Mono<Reply> lookUpApproval(UUID workspaceId, String correlationId, Actor actor, String approvalId) {
        return lookUpApproval(workspaceId, correlationId, actor, null, approvalId);
    }

    /** As {@link #lookUpApproval(UUID, String, Actor, String)} for a key that must hold {@code scope} (null: any). */
    public Mono<Reply> lookUpApproval(UUID workspaceId, String correlationId, Actor actor, Scope scope, String approvalId) {
        return gateway.send(workspaceId.toString(), correlationId, actor, new CheckAccess(scope, null, null, approvalId))
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_API_KEY));
    }

    /**
     * Sends the command {@code prepare} makes from the connection it is given (naming that connection's
     * version), first from {@code first}, again from the current one if the stream answers stale. An empty
     * command means the entry point sends nothing with that connection ({@code Sent.reply} null). The
     * reply is returned whatever its status but stale; a second stale is a 503. Only the {@link ActionGate} sends so.
     *
     * <p>The first command goes under {@code commandId} (an {@code Idempotency-Key}'s; null: a new random one). The
     * command sent again after a stale answer gets an id derived from it and the connection's version, so a client's
     * retry with the same key meets the same stored outcomes, the stale one and then the decision, and is never
     * decided twice.
     */
    Mono<Sent> send(UUID workspaceId, Tool tool, String correlationId, Actor actor, Known first,
                    String commandId, Function<Known, Optional<Command>> prepare) {
        return attempt(workspaceId, tool, correlationId, actor, first, commandId, prepare).flatMap(sent -> {
            if (sent.reply() == null || sent.reply().status() != ReplyStatus.STALE) {
                return Mono.just(sent);
            }
            Known current = view.adopt(workspaceId, tool, sent.reply());
            return attempt(workspaceId, tool, correlationId, actor, current, againId(commandId, current), prepare).map(again -> {
                if (again.reply() != null && again.reply().status() == ReplyStatus.STALE) {
                    view.adopt(workspaceId, tool, again.reply());
                    throw new DecisionServiceUnavailableException(KEPT_CHANGING);
                }
                return again;
            });
        });
    }

    private static String againId(String commandId, Known connection) {
        return commandId == null ? null
                : UUID.nameUUIDFromBytes((commandId + "/connection/" + connection.version()).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private Mono<Sent> attempt(UUID workspaceId, Tool tool, String correlationId, Actor actor, Known connection,
                               String commandId, Function<Known, Optional<Command>> prepare) {
        return Mono.defer(() -> prepare.apply(connection)
                .map(command -> gateway.send(commandId == null ? UUID.randomUUID().toString() : commandId,
                                workspaceId.toString(), correlationId, actor, command)
                        .map(reply -> new Sent(connection, reply)))
                .orElseGet(() -> Mono.just(new Sent(connection, null))));
    }

    /** The connection the command named, current as of the reply's workspace version. */
    private static Known confirmed(Known named, Reply ok) {
        return ok.workspaceVersion() == null ? named : new Known(ok.workspaceVersion(), named.connection());
    }

    /** Adopts what a reply carries (a granted claim's connection) into the view. */
    public Known adopt(UUID workspaceId, Tool tool, Reply reply) {
        return view.adopt(workspaceId, tool, reply);
    }
}
