package io.agentgateway.approvalexecutor;

import io.agentgateway.schemas.HeldCallKind;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The sealed held call of an approval, from the projector's {@code approval_requests} (the decision
 * stream keeps only its kind and digest: held bodies would bloat its state). Blocking.
 */
@Repository
class HeldCallRepository {

    /**
     * @param sealed           null once the approval ended (the projector forgets the call then)
     * @param heldTraceParent  the {@code traceparent} of the request that was held, when it was traced (the execution's
     *                         span links to it); null otherwise
     */
    record HeldCallRow(String status, HeldCallKind kind, String sealed, String heldTraceParent) {

        /**
         * Still worth a claim: the call is there, and it is not ended nor claimed; or claimed, when this executor's own
         * claim got no answer (it may be the one granted: asked again under its id, it gets the grant back).
         */
        boolean claimable(boolean ownClaimUnanswered) {
            return sealed != null && kind != null && ("pending".equals(status) || "approved".equals(status)
                    || ownClaimUnanswered && "executing".equals(status));
        }
    }

    private final JdbcClient jdbc;

    HeldCallRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<HeldCallRow> find(UUID workspaceId, UUID approvalId) {
        return jdbc.sql("""
                        select status, held_call_kind, sealed_held_call, held_trace_parent from approval_requests
                        where id = :id and workspace_id = :workspace
                        """)
                .param("id", approvalId)
                .param("workspace", workspaceId)
                .query((rs, row) -> new HeldCallRow(rs.getString("status"),
                        HeldCallKind.parse(rs.getString("held_call_kind")).orElse(null), rs.getString("sealed_held_call"),
                        rs.getString("held_trace_parent")))
                .optional();
    }
}
