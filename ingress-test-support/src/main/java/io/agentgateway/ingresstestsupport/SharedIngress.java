package io.agentgateway.ingresstestsupport;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;

/**
 * One ingress and one responder per test JVM, for the many tests that only need a healthy system.
 * Tests isolate themselves by random workspace ids. The first caller names the application (a test JVM is one module's
 * tests, which all start the same one).
 */
public final class SharedIngress {
    private static RunningIngress ingress;
    private static DecisionResponder responder;

    private SharedIngress() {}

    public static synchronized RunningIngress ingress(Supplier<SpringApplication> application) {
        if (ingress == null) {
            String bootstrap = SharedTestInfra.kafka().bootstrapServers();
            ingress = RunningIngress.start(application, bootstrap, TestDatabase.create(), Map.of(), true);
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

    /** The responder beside the shared ingress ({@link #ingress} started first). */
    public static synchronized DecisionResponder responder() {
        if (responder == null) {
            throw new IllegalStateException("the shared ingress is not started: call SharedIngress.ingress(application) first");
        }
        return responder;
    }
}
