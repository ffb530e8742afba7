package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import java.util.List;

/** {@code policies}, keyed by (workspace, policy id), guarded by the workspace version. */
final class PolicyWrites {
    private PolicyWrites() {}

    private static final SqlStatement UPSERT = SqlStatement.inEventOrder("""
            insert into policies (workspace_id, policy_id, name, priority, enabled, decision, match, description, condition,
                                  updated_at)
            select :workspace_id::uuid, :policy_id::uuid, :name, :priority, :enabled, :decision, :match::jsonb,
                   :description, :condition, :occurred_at
             where %s
            on conflict (workspace_id, policy_id) do update
               set name = excluded.name, priority = excluded.priority, enabled = excluded.enabled,
                   decision = excluded.decision, match = excluded.match, description = excluded.description,
                   condition = excluded.condition, updated_at = excluded.updated_at
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    private static final SqlStatement DELETE = SqlStatement.inEventOrder("""
            delete from policies
             where workspace_id = :workspace_id::uuid and policy_id = :policy_id::uuid and %s
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    static List<Write> upserted(EventEnvelope envelope, PolicyUpserted event) {
        Policy policy = event.policy();
        if (policy == null) {
            throw new IllegalArgumentException("policy_upserted without a policy");
        }
        // an absent match matches anything, which is what the empty object says too
        String match = policy.match() == null ? "{}" : GatewayJson.MAPPER.writeValueAsString(policy.match());
        return List.of(new Write(UPSERT, EnvelopeParams.of(envelope)
                        .uuid("policy_id", policy.id())
                        .text("name", policy.name())
                        .integer("priority", policy.priority())
                        .bool("enabled", policy.enabled())
                        .wire("decision", policy.decision(), Decision::wire)
                        .json("match", match)
                        .text("description", policy.description())
                        .text("condition", policy.condition())
                        .source()),
                WorkspaceVersionGuard.advance(envelope));
    }

    static List<Write> deleted(EventEnvelope envelope, PolicyDeleted event) {
        return List.of(new Write(DELETE, EnvelopeParams.of(envelope).uuid("policy_id", event.policyId()).source()),
                WorkspaceVersionGuard.advance(envelope));
    }
}
