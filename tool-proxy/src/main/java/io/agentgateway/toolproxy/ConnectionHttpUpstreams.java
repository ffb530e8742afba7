package io.agentgateway.toolproxy;

import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HttpUpstreams;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.httpedge.web.ApiException;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The approval executor's {@link HttpUpstreams}: an approved held request goes where the proxy would
 * send it with the connection the decision stream granted the claim with (carried on the claim's reply,
 * in log order), with that connection's credential. For a workspace with no usable connection to the tool
 * this knows no target: the executor then falls back to {@code gateway.executor.http-upstreams.<tool>} (no
 * credential added), as before the proxy existed. Called on the executor's thread, never an event loop; reads nothing.
 */
@Component
class ConnectionHttpUpstreams implements HttpUpstreams {
    private static final Logger log = LoggerFactory.getLogger(ConnectionHttpUpstreams.class);

    private final ProxyTargets targets;

    ConnectionHttpUpstreams(ProxyTargets targets) {
        this.targets = targets;
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
            return Optional.empty();
        }
    }
}
