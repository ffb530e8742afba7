package io.agentgateway.adminapi.shared;

import io.agentgateway.schemas.command.Reply;

/**
 * A change the decision stream applied: what every admin service that sends a command answers once the stream's reply
 * was OK. {@code workspaceVersion} is the workspace's version after it (null when the stream does not say), what a
 * reader waits for the read model to show before it shows the change (the console's pages).
 */
public record Applied(Long workspaceVersion) {

    public static Applied of(Reply reply) {
        return new Applied(reply.workspaceVersion());
    }
}
