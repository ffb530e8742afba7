package io.agentgateway.console.web;

import io.agentgateway.schemas.Role;
import java.util.UUID;

/** A workspace the signed-in user belongs to, with the role the read model shows (the stream decides anew). */
public record Membership(UUID workspaceId, String workspaceName, Role role) {

    /** Approve or reject: reviewer, admin or owner (the decision stream checks again, in log order). */
    public boolean mayReview() {
        return role == Role.OWNER || role == Role.ADMIN || role == Role.REVIEWER;
    }

    /** The kill switch and pauses: admin or owner (spec 4.2). */
    public boolean mayAdminister() {
        return role == Role.OWNER || role == Role.ADMIN;
    }
}
