package io.agentgateway.httpedge.edge;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelPipeline;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.NettyPipeline;

/**
 * Puts the {@link HttpEdgeGuard} into every HTTP/1.1 connection of the server (and of the management
 * server, which is harmless) and closes kept-alive connections that stay idle for
 * {@code gateway.http.idle-timeout} (Reactor Netty's own idle timeout).
 */
@Configuration(proxyBeanMethods = false)
class HttpEdgeConfiguration {

    @Bean
    NettyServerCustomizer httpEdgeCustomizer(HttpEdgeProperties limits, MeterRegistry registry) {
        HttpEdgeRefusals refusals = new HttpEdgeRefusals(registry);
        return server -> server
                .idleTimeout(limits.idleTimeout())
                .doOnChannelInit((observer, channel, remoteAddress) -> {
                    ChannelPipeline pipeline = channel.pipeline();
                    if (pipeline.get(NettyPipeline.HttpCodec) == null) {
                        return;
                    }
                    HttpEdgeGuard guard = new HttpEdgeGuard(limits, refusals);
                    pipeline.addBefore(NettyPipeline.HttpCodec, "gateway.edge.raw", guard.rawSide());
                    pipeline.addAfter(NettyPipeline.HttpCodec, "gateway.edge.http", guard.messageSide());
                });
    }
}
