package io.agentgateway.schemas.command;

/** Remove a member. The last owner cannot be removed. */
public record RemoveMember(String userId) implements Command {}
