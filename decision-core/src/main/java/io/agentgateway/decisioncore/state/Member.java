package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.Role;
import java.util.Objects;

/** A workspace member as the decision stream knows it: enough to authorize and to address notifications. */
public record Member(String email, Role role) {
    public Member {
        Objects.requireNonNull(role, "role");
    }

    public boolean mayAdminister() {
        return role == Role.OWNER || role == Role.ADMIN;
    }

    /** Approve or reject the workspace's approvals: an administrator, or a reviewer (who may do nothing else). */
    public boolean mayReview() {
        return mayAdminister() || role == Role.REVIEWER;
    }
}
