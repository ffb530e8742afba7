package io.agentgateway.actiongate.heldcall;

import java.util.Optional;

/**
 * Where a held HTTP request goes: from the connection the claim was granted with (the proxy's
 * {@code ConnectionHttpUpstreams}), else the configured one per tool (the executor's
 * {@code gateway.executor.http-upstreams}; the executor puts the two together with {@link #orElse}).
 */
public interface HttpUpstreams {
    /** @return where the held call goes; empty when this source knows no upstream for it */
    Optional<UpstreamTarget> target(HeldCallContext context);

    /** This source's target, or {@code fallback}'s when this one has none. */
    default HttpUpstreams orElse(HttpUpstreams fallback) {
        return context -> target(context).or(() -> fallback.target(context));
    }
}
