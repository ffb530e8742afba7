package io.agentgateway.launcher.support;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Another ingress on the shared test gateway ({@link GatewayHarness}) with settings of its own, on a reply partition
 * of its own (the gateway's is 0; the reply topic has 4), started on first use and closed with the gateway or by
 * {@link #close}.
 */
public final class IngressReplica implements AutoCloseable {
    private final int replyPartition;
    private final Map<String, String> settings;
    private ConfigurableApplicationContext context;

    public IngressReplica(int replyPartition, Map<String, String> settings) {
        this.replyPartition = replyPartition;
        this.settings = settings;
    }

    public synchronized String baseUrl() {
        if (context == null) {
            context = GatewayHarness.gateway().startIngressReplica(replyPartition, settings);
        }
        return EmbeddedGateway.baseUrlOf(context);
    }

    /** The replica's command gateway (starting the replica if needed). */
    public synchronized CommandGateway commandGateway() {
        baseUrl();
        return context.getBean(CommandGateway.class);
    }

    public GatewayHttpClient client() {
        return new GatewayHttpClient(baseUrl());
    }

    @Override
    public synchronized void close() {
        if (context != null) {
            context.close();
        }
    }
}
