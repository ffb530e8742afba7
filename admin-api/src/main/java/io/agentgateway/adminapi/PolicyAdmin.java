package io.agentgateway.adminapi;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's policies, for every client of them (the admin API, the console): the list in evaluation order, a body
 * checked by the API's own rules ({@link PolicyBodies}: every 400 names its field, a condition that does not compile its
 * line and column), and the change as one command through the decision stream, which checks the admin role and the
 * workspace's limits in log order. Refusals are the API's {@code ApiException}s; no reply in time is the gateway's usual
 * error.
 */
@Component
public class PolicyAdmin {

    /** A policy as the read model shows it (the admin API's list item). */
    public record PolicyView(String id, String name, int priority, boolean enabled, String decision, JsonNode match,
                             String description, String condition, Instant updatedAt) {}

    private final AdminCommands commands;
    private final PolicyRepository policies;
    private final ConditionEnvironment conditions;

    PolicyAdmin(AdminCommands commands, PolicyRepository policies, ConditionEnvironment conditions) {
        this.commands = commands;
        this.policies = policies;
        this.conditions = conditions;
    }

    /** In evaluation order: priority, then id. Blocking: call off the event loop. */
    public List<PolicyView> list(UUID workspaceId) {
        return policies.list(workspaceId);
    }

    /**
     * A policy body as {@code POST}/{@code PUT .../policies} take it.
     *
     * @param policyId the id it gets (new for a create, the existing one's for a replace)
     * @param idInPath whether a body id must equal {@code policyId} (a replace) or is refused (a create)
     * @throws io.agentgateway.httpedge.web.ApiException 400 naming the field ({@code ApiException#field()})
     */
    public Policy parse(ObjectNode body, UUID policyId, boolean idInPath) {
        return PolicyBodies.parse(body, policyId, idInPath, conditions);
    }

    /** Creates or replaces the policy (its id says which): accepted once the stream applied it. */
    public Mono<Reply> save(AuthenticatedUser user, UUID workspaceId, Policy policy, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new UpsertPolicy(policy));
    }

    public Mono<Reply> delete(AuthenticatedUser user, UUID workspaceId, UUID policyId, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new DeletePolicy(policyId.toString()));
    }
}
