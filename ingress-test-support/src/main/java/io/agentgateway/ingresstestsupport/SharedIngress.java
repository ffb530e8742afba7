package io.agentgateway.ingresstestsupport;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.util.Map;

/**
 * One ingress and one responder per test JVM, for the many tests that only need a healthy system.
 * Tests isolate themselves by random workspace ids.
 */
public final class SharedIngress {
    private static RunningIngress ingress;
    private static DecisionResponder responder;

    private SharedIngress() {}

    public static synchronized RunningIngress ingress() {
        if (ingress == null) {
            String bootstrap = SharedTestInfra.kafka().bootstrapServers();
            ingress = RunningIngress.start(bootstrap, TestDatabase.create(), Map.of(), true);
            responder = new DecisionResponder(bootstrap);
            RunningIngress started = ingress;
            DecisionResponder startedResponder = responder;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                startedResponder.close();
                started.close();
            }, "stop-test-ingress"));
        }
        return ingress;
    }

    public static synchronized DecisionResponder responder() {
        ingress();
        return responder;
    }
}
