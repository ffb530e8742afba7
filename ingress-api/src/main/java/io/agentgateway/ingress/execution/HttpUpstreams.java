package io.agentgateway.ingress.execution;

import java.util.Optional;

/**
 * Where a held HTTP request goes: from the connection the claim was granted with (the proxy's
 * {@code ConnectionHttpUpstreams}), or the configured one per tool.
 */
public interface HttpUpstreams {
    Optional<UpstreamTarget> target(HeldCallContext context);
}
