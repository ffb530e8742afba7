package io.agentgateway.ingress.execution;

import io.agentgateway.schemas.Tool;
import java.util.Optional;

/** Resolves the upstream of a tool for a workspace. The proxy's tool connections will provide one. */
public interface HttpUpstreams {
    Optional<UpstreamTarget> target(String workspaceId, Tool tool);
}
