package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Role;

/** Add a member or change its role or email. The last owner cannot be demoted. */
public record SetMember(String userId, String email, Role role) implements Command {}
