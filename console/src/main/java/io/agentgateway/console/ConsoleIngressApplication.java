package io.agentgateway.console;

import io.agentgateway.ingress.IngressApplication;
import org.springframework.boot.SpringApplication;

/**
 * The ingress with its console: what runs as a service of its own ({@code java -jar console/target/console-*-exec.jar},
 * the same settings as the ingress's) and what the launcher's embedded default starts.
 */
public final class ConsoleIngressApplication {
    private ConsoleIngressApplication() {}

    /** {@link IngressApplication#application()} with the console as a further source. */
    public static SpringApplication application() {
        SpringApplication application = IngressApplication.application();
        application.addPrimarySources(java.util.List.of(ConsoleConfiguration.class));
        return application;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
