package io.agentgateway.decisioncore.core.action;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.time.Instant;
import java.util.Optional;

/**
 * Answers an entry point's question before it acts on something that is not a decided call (the MCP
 * gate's tools/list and initialize, the status endpoint, the proxy before it says a connection cannot
 * be used, the webhook verifier before it refuses a signature): may this key act, in log order with
 * its issue and revocation; is the connection the entry point holds the current one; is this approval
 * open. It changes nothing and emits nothing: no audit entry, no event.
 *
 * <p>Order: the actor (an API key authorized for the scope, any scope when none is asked; the gateway
 * itself; nobody else), then the connection (stale with the current one), then the approval. A key
 * that may not act learns nothing, not even whether the workspace exists.
 */
final class CheckAccessHandler implements CommandHandler<CheckAccess> {
    private final CommandAuthorizer authorizer;

    public CheckAccessHandler(CommandAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, CheckAccess command) {
        Instant at = envelope.acceptedAt();
        if (envelope.actor().kind() == ActorKind.API_KEY) {
            boolean mayAct = command.requiredScope() == null
                    ? authorizer.anyScopeApiKey(state, envelope.actor(), at).isPresent()
                    : authorizer.apiKey(state, envelope.actor(), command.requiredScope(), at).isPresent();
            if (!mayAct) {
                return CommandResult.rejected(state, ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
            }
        } else if (!CommandAuthorizer.isSystem(envelope.actor())) {
            return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, "Only API keys and the gateway itself may check access");
        }
        Optional<CommandResult> stale = ConnectionVersions.staleUnless(state, command.tool(), command.connectionVersion());
        if (stale.isPresent()) {
            return stale.get();
        }
        CommandResult ok = CommandResult.accepted(state);
        if (command.approvalId() == null) {
            return ok;
        }
        Optional<PendingApproval> open = state.approval(command.approvalId());
        return open.map(approval -> ok.withApproval(new ApprovalSnapshot(command.approvalId(), approval.status().wire(),
                approval.tool(), approval.action(), approval.expiresAt(), approval.requestedAt(),
                approval.requestedByKeyHash(), approval.heldCallKind()))).orElse(ok);
    }
}
