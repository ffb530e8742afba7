package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's policies, for every client of them (the admin API, the console): the list in evaluation order, a body
 * checked by the API's own rules ({@link PolicyBodies}: every 400 names its field, a condition that does not compile its
 * line and column), and the change as one command through the decision stream, which checks the admin role and the
 * workspace's limits in log order. Every answer is a {@code Mono}: the value, or the refusal as an {@code ApiException};
 * no reply in time is the gateway's usual error.
 */
@Service
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

    /** In evaluation order: priority, then id. */
    public Mono<List<PolicyView>> list(UUID workspaceId) {
        return Blocking.call(() -> policies.list(workspaceId));
    }

    /**
     * A policy body as {@code POST}/{@code PUT .../policies} take it, checked.
     *
     * @param policyId the id it gets (new for a create, the existing one's for a replace)
     * @param idInPath whether a body id must equal {@code policyId} (a replace) or is refused (a create)
     * @return the policy, or a 400 naming the field ({@code ApiException#field()})
     */
    public Mono<Policy> check(ObjectNode body, UUID policyId, boolean idInPath) {
        return Mono.fromCallable(() -> PolicyBodies.parse(body, policyId, idInPath, conditions));
    }

    /** Creates or replaces the policy (its id says which): applied once the stream applied it. */
    public Mono<Applied> save(AuthenticatedUser user, UUID workspaceId, Policy policy, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new UpsertPolicy(policy));
    }

    public Mono<Applied> delete(AuthenticatedUser user, UUID workspaceId, UUID policyId, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new DeletePolicy(policyId.toString()));
    }
}
