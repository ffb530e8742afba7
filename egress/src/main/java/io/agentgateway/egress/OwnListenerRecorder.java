package io.agentgateway.egress;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Registers every web server of this context (and of its management child context, whose events reach
 * the parent) with {@link OwnListeners#PROCESS} as it starts, and forgets them when the context closes.
 */
final class OwnListenerRecorder implements ApplicationListener<ApplicationEvent> {

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof WebServerInitializedEvent started) {
            OwnListeners.PROCESS.register(started.getApplicationContext(), started.getWebServer().getPort());
        } else if (event instanceof ContextClosedEvent closed) {
            OwnListeners.PROCESS.unregister(closed.getApplicationContext());
        }
    }
}
