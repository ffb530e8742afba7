package io.agentgateway.decision.handling;

import io.agentgateway.decision.state.ApprovalStatus;
import io.agentgateway.decision.state.PendingApproval;
import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.DomainEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Ends the approvals whose time is over, each time a new one opens, so that the workspace state holds
 * only the approvals of about one TTL however many were ever opened:
 * <ul>
 *   <li>pending past its expiry: it expired; {@link ApprovalExpired} is emitted (once: it leaves the state);</li>
 *   <li>approved but never claimed, or claimed but its run never recorded (an executor that crashed
 *       mid-run), one TTL after its expiry: dropped without an event. The read model keeps showing
 *       it approved or executing, which is the truth: its call was not run by the gateway, or was
 *       run at most once with an unknown outcome.</li>
 * </ul>
 */
final class ApprovalSweep {
    private ApprovalSweep() {}

    record Swept(WorkspaceState state, List<DomainEvent> events) {}

    static Swept at(WorkspaceState state, Instant at) {
        List<String> ended = new ArrayList<>();
        List<DomainEvent> events = new ArrayList<>();
        // approvals() is sorted by id, so a replay emits the same events in the same order
        for (Map.Entry<String, PendingApproval> entry : state.approvals().entrySet()) {
            PendingApproval approval = entry.getValue();
            if (approval.status() == ApprovalStatus.PENDING && approval.expiredAt(at)) {
                ended.add(entry.getKey());
                events.add(new ApprovalExpired(entry.getKey(), approval.expiresAt()));
            } else if (approval.status() != ApprovalStatus.PENDING
                    && at.isAfter(approval.expiresAt().plus(state.approvalTtl()))) {
                ended.add(entry.getKey());
            }
        }
        return new Swept(state.withoutApprovals(ended), events);
    }
}
