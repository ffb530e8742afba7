package io.agentgateway.ingress.execution;

import io.agentgateway.schemas.Tool;

/** Which approval a held call belongs to, for the runner that replays it (and its logs). */
public record HeldCallContext(String workspaceId, String approvalId, Tool tool, String action, String correlationId) {}
