package io.agentgateway.actiongate;

import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.actiongate.ActionIntent.ConnectionUse;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.web.ReplyErrors;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one way an entry point has an action decided: evaluate-action, the proxy, the MCP gate and both webhooks build
 * an {@link ActionIntent} and map the {@link GateDecision} to their own protocol (JSON, an SDK's error shape, JSON-RPC,
 * a webhook's 200). What every door needs alike happens here: the command id (an {@code Idempotency-Key}'s, or a new
 * one), the version of the tool connection the decided call goes out with, the command prepared once more from the
 * current connection when the stream says the one it named is stale, the caller's deadline (carried by the
 * {@link CommandGateway}), and the reading of the stream's reply.
 *
 * <p>Fails closed: no reply, a broker that cannot be reached, or a connection that changed again while the request was
 * being decided are errors (503/504), and an OK reply that carries no decision is never read as one.
 */
@Component
public class ActionGate {
    private final CommandGateway gateway;
    private final ConnectionAccess access;

    ActionGate(CommandGateway gateway, ConnectionAccess access) {
        this.gateway = gateway;
        this.access = access;
    }

    /**
     * @return the decision; as the error signal, the refusal the reply means ({@code ApiException} 400, 401, 403, 404,
     *         409, 429) or a failure to have it decided ({@code DecisionServiceUnavailableException},
     *         {@code DecisionTimeoutException})
     */
    public Mono<GateDecision> decide(ActionIntent intent) {
        return Mono.defer(() -> {
            ConnectionUse use = intent.connection();
            if (use == null) {
                Command command = intent.commandFor(null)
                        .orElseThrow(() -> new IllegalStateException("an intent without a connection always has its command"));
                String commandId = intent.commandId() == null ? UUID.randomUUID().toString() : intent.commandId();
                return gateway.send(commandId, intent.workspaceId().toString(), intent.correlationId(), intent.actor(), command)
                        .map(reply -> read(intent, null, reply));
            }
            return connection(intent, use)
                    .flatMap(first -> access.send(intent.workspaceId(), use.tool(), intent.correlationId(), intent.actor(),
                            first, intent.commandId(), intent::commandFor))
                    .map(sent -> read(intent, sent.connection(), sent.reply()));
        });
    }

    /** The connection to prepare the command from first. */
    private Mono<Known> connection(ActionIntent intent, ConnectionUse use) {
        if (use.given() != null) {
            return Mono.just(use.given());
        }
        Known held = access.known(intent.workspaceId(), use.tool());
        return use.usable().test(held.connection())
                ? Mono.just(held)
                : access.authorize(intent.workspaceId(), intent.correlationId(), intent.actor(), use.scope(), use.tool());
    }

    private static GateDecision read(ActionIntent intent, Known connection, Reply reply) {
        if (reply == null) {
            return new GateDecision(GateDecision.Kind.WITHDRAWN, connection, null);
        }
        if (intent.webhook()) {
            if (reply.status() == ReplyStatus.CONFLICT) {
                return new GateDecision(GateDecision.Kind.DUPLICATE, connection, null);
            }
            ReplyErrors.requireOk(reply, intent.unauthorizedText());
            return new GateDecision(GateDecision.Kind.DECIDED, connection, reply.evaluation());
        }
        if (intent.agent()) {
            ReplyErrors.requireAgentOk(reply);
        } else {
            ReplyErrors.requireOk(reply, intent.unauthorizedText());
        }
        EvaluationOutcome outcome = reply.evaluation();
        if (outcome == null || outcome.decision() == null) {
            // never invent a decision the stream did not make
            throw new IllegalStateException("OK reply without a decision to command " + reply.commandId());
        }
        return new GateDecision(GateDecision.Kind.DECIDED, connection, outcome);
    }
}
