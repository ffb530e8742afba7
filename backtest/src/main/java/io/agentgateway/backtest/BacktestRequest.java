package io.agentgateway.backtest;

import io.agentgateway.schemas.Policy;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A back-test to run: the recorded evaluations of {@code workspaceId} that occurred in
 * {@code [from, to)}, decided again under {@code candidate} instead of the policies that were live.
 * The messages of the exceptions are meant for the person who asked (an HTTP 400, a CLI error line).
 */
public record BacktestRequest(String workspaceId, List<Policy> candidate, Instant from, Instant to) {

    public BacktestRequest {
        if (workspaceId == null || workspaceId.isBlank()) {
            throw new IllegalArgumentException("workspaceId is required");
        }
        Objects.requireNonNull(candidate, "candidate");
        if (from == null) {
            throw new IllegalArgumentException("from is required");
        }
        if (to == null) {
            throw new IllegalArgumentException("to is required");
        }
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to");
        }
        candidate = List.copyOf(candidate);
        Set<String> ids = new HashSet<>();
        for (Policy policy : candidate) {
            if (policy.id() == null || policy.decision() == null) {
                throw new IllegalArgumentException("every candidate policy needs an id and a decision");
            }
            if (!ids.add(policy.id())) {
                throw new IllegalArgumentException("candidate policy id " + policy.id() + " appears twice");
            }
        }
    }

    /** Whether an event that occurred at {@code at} is inside the range (from inclusive, to exclusive). */
    public boolean covers(Instant at) {
        return at != null && !at.isBefore(from) && at.isBefore(to);
    }
}
