package io.agentgateway.ingresstestsupport;

import java.util.List;
import java.util.ServiceLoader;
import org.springframework.boot.SpringApplication;

/**
 * The ingress application a test tree starts ({@link RunningIngress}, {@link SharedIngress}). The harness knows no
 * ingress module: the modules the application assembles use it in their own tests, and the application depends on
 * them, so the harness cannot depend on the application. A test tree that starts the ingress names it once, in
 * {@code src/test/resources/META-INF/services/io.agentgateway.ingresstestsupport.IngressUnderTest} (ingress-api's:
 * {@code IngressApplication.application()}, as production starts it).
 */
public interface IngressUnderTest {

    /** The application as it is started in production: its web type pinned, its defaults loaded. */
    SpringApplication application();

    /** The one application the test classpath names. */
    static SpringApplication find() {
        List<IngressUnderTest> named = ServiceLoader.load(IngressUnderTest.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        if (named.size() != 1) {
            throw new IllegalStateException("the test classpath names " + named.size() + " ingress applications to start;"
                    + " name exactly one in META-INF/services/" + IngressUnderTest.class.getName());
        }
        return named.get(0).application();
    }
}
