package io.agentgateway.ingress.connection;

import io.agentgateway.schemas.Tool;
import java.util.UUID;

/**
 * A Spring application event: this instance has just had a change to a workspace's tool connection
 * accepted by the decision stream (the admin API or an OAuth callback). Caches of connections drop
 * the workspace's entry on it, so whoever made the change is served the new connection by this
 * instance as soon as the read model shows it, instead of once the change has also come back over
 * the events topic (which every instance still follows, for changes made elsewhere).
 */
public record ToolConnectionChangedHere(UUID workspaceId, Tool tool) {}
