package io.agentgateway.schemas.command;

/**
 * Create the envelope's workspace. Its first owner is {@code ownerUserId} (with {@code ownerEmail}) when
 * set (an operator creating a workspace for someone), else the issuing user. Refused if it exists.
 */
public record CreateWorkspace(String name, String ownerUserId, String ownerEmail) implements Command {

    /** The issuing user becomes the owner (the v1 form before operators). */
    public CreateWorkspace(String name) {
        this(name, null, null);
    }
}
