package io.agentgateway.console.web;

import io.agentgateway.console.session.ConsoleSession;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The signed-in user of a request and the workspaces they may read in the console (owner, admin, reviewer or viewer:
 * a plain member reads nothing here, as in the admin API). Another workspace is not theirs: it is answered 404, never
 * its content. {@code operator}: one of {@code gateway.auth.operators}, who lists and creates workspaces.
 */
public record Reader(ConsoleSession session, List<Membership> memberships, boolean operator) {

    public Reader(ConsoleSession session, List<Membership> memberships) {
        this(session, memberships, false);
    }

    /** Whether the user administers any workspace (the navigation shows the admin pages then). */
    public boolean mayAdministerAny() {
        return memberships.stream().anyMatch(Membership::mayAdminister);
    }

    public Optional<Membership> membership(UUID workspaceId) {
        return memberships.stream().filter(m -> m.workspaceId().equals(workspaceId)).findFirst();
    }

    public List<UUID> workspaceIds() {
        return memberships.stream().map(Membership::workspaceId).toList();
    }

    public boolean mayReviewAny() {
        return memberships.stream().anyMatch(Membership::mayReview);
    }

    public String csrf() {
        return session.csrfToken();
    }
}
