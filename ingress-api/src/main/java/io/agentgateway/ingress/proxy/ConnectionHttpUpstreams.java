package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.execution.ExecutorProperties;
import io.agentgateway.ingress.execution.HeldCallContext;
import io.agentgateway.ingress.execution.HttpUpstreams;
import io.agentgateway.ingress.execution.UpstreamTarget;
import io.agentgateway.ingress.web.ApiException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The approval executor's {@link HttpUpstreams}: an approved held request goes where the proxy would
 * send it with the connection the decision stream granted the claim with (carried on the claim's reply,
 * in log order), with that connection's credential. A workspace with no usable connection to the tool
 * falls back to {@code gateway.executor.http-upstreams.<tool>} (no credential added), as before the
 * proxy existed. Called on the executor's thread, never an event loop; reads nothing.
 */
@Component
class ConnectionHttpUpstreams implements HttpUpstreams {
    private static final Logger log = LoggerFactory.getLogger(ConnectionHttpUpstreams.class);

    private final ProxyTargets targets;
    private final Map<String, URI> configured;

    ConnectionHttpUpstreams(ProxyTargets targets, ExecutorProperties executor) {
        this.targets = targets;
        this.configured = executor.httpUpstreams() == null ? Map.of() : Map.copyOf(executor.httpUpstreams());
    }

    @Override
    public Optional<UpstreamTarget> target(HeldCallContext context) {
        if (context.tool() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(targets.require(UUID.fromString(context.workspaceId()), context.tool(), context.connection()).upstream());
        } catch (ApiException noConnection) {
            log.info("approval executor: workspace {} has no usable {} connection ({}); trying the configured upstream",
                    context.workspaceId(), context.tool().wire(), noConnection.getMessage());
            return Optional.ofNullable(configured.get(context.tool().wire())).map(url -> new UpstreamTarget(url, Map.of()));
        }
    }
}
