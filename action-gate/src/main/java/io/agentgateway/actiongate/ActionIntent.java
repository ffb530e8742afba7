package io.agentgateway.actiongate;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What an entry point asks the {@link ActionGate} to have decided: who asks (an agent's API key, or the webhook
 * verifier for a delivery it verified), in which workspace, under which command id, the command, and the tool
 * connection the decided call goes out with, if any. The gate names that connection's version in the command, so
 * that the decision stream decides only on its current connection.
 *
 * <p>A command that depends on the connection is prepared from it ({@link Builder#evaluate(Function)}): the proxy
 * classifies a call by the connection's rules, and a webhook is sent only if it verifies with the connection's
 * secret. The gate prepares it once more from the current connection when the stream answers that the one it was
 * prepared from is stale.
 */
public final class ActionIntent {
    /** The actor of the webhooks a verifier checked: the delivery's sender has no identity of its own. */
    public static final String WEBHOOK_VERIFIER = "webhook-verifier";

    private final UUID workspaceId;
    private final String correlationId;
    private final Actor actor;
    private final String commandId;
    private final ConnectionUse connection;
    private final Function<Known, Optional<? extends Command>> command;
    private final String unauthorizedText;
    private final boolean agent;
    private final boolean webhook;

    private ActionIntent(Builder builder) {
        this.workspaceId = builder.workspaceId;
        this.correlationId = builder.correlationId;
        this.actor = builder.actor;
        this.commandId = builder.commandId;
        this.connection = builder.connection;
        this.command = Objects.requireNonNull(builder.command, "an intent needs a command");
        this.unauthorizedText = builder.agent ? ErrorMessages.INVALID_API_KEY : ErrorMessages.INTERNAL;
        this.agent = builder.agent;
        this.webhook = builder.webhook;
    }

    /**
     * An agent's action, under its API key (never forwarded: the stream checks it in log order with its revocations).
     *
     * @param agentId the agent the caller names ({@code X-Agent-Id}), or null
     */
    public static Builder agent(ApiKeyCredential key, String agentId, String correlationId) {
        return new Builder(key.workspaceId(), correlationId, Actor.apiKey(key.keyHash(), agentId), key.keyHash(), true);
    }

    /** A webhook delivery the verifier checked, for one workspace (or {@link ReceiveWebhook#NO_WORKSPACE}). */
    public static Builder verifiedWebhook(String workspaceId, String correlationId) {
        return new Builder(workspaceId, correlationId, Actor.system(WEBHOOK_VERIFIER), null, false);
    }

    UUID workspaceId() {
        return workspaceId;
    }

    String correlationId() {
        return correlationId;
    }

    Actor actor() {
        return actor;
    }

    /** Null: each attempt gets a new random id. */
    String commandId() {
        return commandId;
    }

    ConnectionUse connection() {
        return connection;
    }

    /** The command prepared from {@code current} (naming its version), or empty when the entry point withdraws it. */
    Optional<Command> commandFor(Known current) {
        Optional<? extends Command> prepared = command.apply(current);
        if (prepared.isEmpty() || connection == null) {
            return prepared.map(Command.class::cast);
        }
        if (prepared.get() instanceof EvaluateAction action) {
            return Optional.of(action.withConnectionVersion(current.version()));
        }
        if (prepared.get() instanceof ReceiveWebhook delivery) {
            return Optional.of(delivery.verifiedWith(current.version()));
        }
        throw new IllegalStateException("a " + prepared.get().getClass().getSimpleName() + " is not decided on a tool connection");
    }

    String unauthorizedText() {
        return unauthorizedText;
    }

    /** Whether this records a webhook delivery, which the stream answers {@code conflict} when it recorded it before. */
    boolean webhook() {
        return webhook;
    }

    /** Whether the stream's 403 text is shown (it says why an agent's key may not act so); else the API's fixed one. */
    boolean agent() {
        return agent;
    }

    /**
     * The connection a decided call goes out with: the one given, or the one the connection view holds, confirmed with
     * the stream first ({@code check_access} for {@code scope}) when it is not {@code usable} as the view has it.
     */
    record ConnectionUse(Tool tool, Known given, Scope scope, Predicate<ToolConnection> usable) {}

    public static final class Builder {
        private final UUID workspaceId;
        private final String correlationId;
        private final Actor actor;
        private final String keyHash;
        private final boolean agent;
        private String commandId;
        private ConnectionUse connection;
        private Function<Known, Optional<? extends Command>> command;
        private boolean webhook;

        private Builder(UUID workspaceId, String correlationId, Actor actor, String keyHash, boolean agent) {
            this.workspaceId = workspaceId;
            this.correlationId = correlationId;
            this.actor = actor;
            this.keyHash = keyHash;
            this.agent = agent;
        }

        private Builder(String workspaceId, String correlationId, Actor actor, String keyHash, boolean agent) {
            this(UUID.fromString(workspaceId), correlationId, actor, keyHash, agent);
        }

        /**
         * The client's {@code Idempotency-Key}: a retry with it is answered the first attempt's outcome instead of a
         * second decision ({@link IdempotencyKeys}). {@code qualifier} keeps apart requests that share one key (the
         * calls of one MCP batch); null when there are none.
         */
        public Builder idempotencyKey(Optional<String> key, String qualifier) {
            this.commandId = key.map(k -> IdempotencyKeys.commandId(workspaceId.toString(), keyHash, k, qualifier))
                    .orElse(null);
            return this;
        }

        /** The call goes out with this connection of {@code tool}, which the entry point already holds. */
        public Builder onConnection(Tool tool, Known connection) {
            this.connection = new ConnectionUse(tool, Objects.requireNonNull(connection), null, null);
            return this;
        }

        /**
         * The call goes out with the workspace's connection of {@code tool} as the connection view holds it; one the
         * view holds but that is not {@code usable} is confirmed with the stream ({@code check_access}, which also
         * checks the key's {@code scope}) before the entry point may say it cannot be used.
         */
        public Builder onConnection(Tool tool, Scope scope, Predicate<ToolConnection> usable) {
            this.connection = new ConnectionUse(tool, null, scope, usable);
            return this;
        }

        public Builder evaluate(EvaluateAction action) {
            Objects.requireNonNull(action);
            this.command = connection -> Optional.of(action);
            return this;
        }

        /** A delivery recorded as it is (one that matched no workspace: no connection verified it). */
        public Builder receive(ReceiveWebhook delivery) {
            Objects.requireNonNull(delivery);
            this.command = connection -> Optional.of(delivery);
            this.webhook = true;
            return this;
        }

        /** The evaluation prepared from the connection it is decided on; empty withdraws it (nothing is sent). */
        public Builder evaluate(Function<Known, Optional<EvaluateAction>> prepare) {
            this.command = prepare::apply;
            return this;
        }

        /** A verified delivery, prepared from the connection it is recorded on; empty: it does not verify with that one. */
        public Builder receive(Function<Known, Optional<ReceiveWebhook>> prepare) {
            this.command = prepare::apply;
            this.webhook = true;
            return this;
        }

        public ActionIntent build() {
            return new ActionIntent(this);
        }
    }
}
