package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.WorkspaceCreated;
import java.util.List;

/** {@code workspace_members}, keyed by (workspace, user), guarded by the workspace version. */
final class MemberWrites {
    private MemberWrites() {}

    private static final SqlStatement UPSERT = SqlStatement.inEventOrder("""
            insert into workspace_members (workspace_id, user_id, email, role, updated_at)
            select :workspace_id::uuid, :user_id, :email, :role, :occurred_at
             where %s
            on conflict (workspace_id, user_id) do update
               set email = excluded.email, role = excluded.role, updated_at = excluded.updated_at
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    private static final SqlStatement DELETE = SqlStatement.inEventOrder("""
            delete from workspace_members
             where workspace_id = :workspace_id::uuid and user_id = :user_id and %s
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    /** The creator of a workspace is its first member, with the owner role. */
    static List<Write> owner(EventEnvelope envelope, WorkspaceCreated event) {
        if (event.ownerUserId() == null) {
            return List.of();
        }
        return List.of(upsert(envelope, event.ownerUserId(), event.ownerEmail(), Role.OWNER));
    }

    static List<Write> set(EventEnvelope envelope, MemberSet event) {
        return List.of(upsert(envelope, event.userId(), event.email(), event.role()),
                WorkspaceVersionGuard.advance(envelope));
    }

    static List<Write> removed(EventEnvelope envelope, MemberRemoved event) {
        return List.of(new Write(DELETE, EnvelopeParams.of(envelope).text("user_id", event.userId()).source()),
                WorkspaceVersionGuard.advance(envelope));
    }

    private static Write upsert(EventEnvelope envelope, String userId, String email, Role role) {
        return new Write(UPSERT, EnvelopeParams.of(envelope)
                .text("user_id", userId)
                .text("email", email)
                .wire("role", role, Role::wire)
                .source());
    }
}
