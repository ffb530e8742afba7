package io.agentgateway.ingresstestsupport;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;

/**
 * One ingress and one responder per test JVM, for the many tests that only need a healthy system.
 * Tests isolate themselves by random workspace ids.
 */
public final class SharedIngress {
    private static RunningIngress ingress;
    private static DecisionResponder responder;

    private SharedIngress() {}

    /** The ingress the test tree names ({@link IngressUnderTest}). */
    public static synchronized RunningIngress ingress() {
        return ingress(IngressUnderTest::find);
    }

    /** The ingress {@code application} starts; the first caller names it (a test JVM runs one module's tests). */
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

    /** The responder beside the shared ingress (started, as the test tree names it, if it is not yet). */
    public static synchronized DecisionResponder responder() {
        ingress();
        return responder;
    }
}
