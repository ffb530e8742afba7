package io.agentgateway.actiongate.heldcall;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;

/**
 * Which approval a held call belongs to, for the runner that replays it (and its logs), and the
 * connection it runs with.
 *
 * @param connection the workspace's connection to the tool as the decision stream granted the claim with it
 *                   (sealed; null: the workspace has none). A runner uses this one, never another copy.
 */
public record HeldCallContext(String workspaceId, String approvalId, Tool tool, String action, String correlationId,
                              ToolConnection connection) {}
