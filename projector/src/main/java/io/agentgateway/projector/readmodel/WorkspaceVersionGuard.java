package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.event.EventEnvelope;

/**
 * Keeps a replay from rolling current state back. {@code workspaces.workspace_version} is the
 * version of the newest event that changed the projected configuration of the workspace (settings,
 * kill switch, members, policies, API keys); a reader that knows the version a command produced can
 * wait for it. A state event applies only if its version is not older than that; the
 * comparison is {@code <=} rather than {@code <} because the several events of one command share
 * its version and each must apply (and re-applying the newest command is a no-op: same values).
 * Deleted members and policies therefore stay deleted when older events are redelivered, without
 * tombstone rows.
 */
final class WorkspaceVersionGuard {
    private WorkspaceVersionGuard() {}

    /** SQL condition: the event is not older than the projected state. Needs :workspace_id and :workspace_version. */
    static final String NOT_STALE = "exists (select 1 from workspaces w"
            + " where w.id = :workspace_id::uuid and w.workspace_version <= :workspace_version)";

    /** Records that a member, policy or key event of this version was projected. */
    private static final SqlStatement ADVANCE = SqlStatement.inEventOrder("""
            update workspaces
               set workspace_version = :workspace_version,
                   policy_set_version = greatest(policy_set_version, :policy_set_version),
                   updated_at = :occurred_at
             where id = :workspace_id::uuid and workspace_version < :workspace_version
            """);

    static Write advance(EventEnvelope envelope) {
        return new Write(ADVANCE, EnvelopeParams.of(envelope).source());
    }
}
