package io.agentgateway.approvalexecutor;

import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HttpUpstreams;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/** {@code gateway.executor.http-upstreams.<tool>}: one base URL per tool, the same for every workspace. */
final class ConfiguredHttpUpstreams implements HttpUpstreams {
    private final Map<String, URI> baseUrls;

    ConfiguredHttpUpstreams(Map<String, URI> baseUrls) {
        this.baseUrls = Map.copyOf(baseUrls);
    }

    @Override
    public Optional<UpstreamTarget> target(HeldCallContext context) {
        Tool tool = context.tool();
        return Optional.ofNullable(tool == null ? null : baseUrls.get(tool.wire()))
                .map(url -> new UpstreamTarget(url, Map.of()));
    }
}
