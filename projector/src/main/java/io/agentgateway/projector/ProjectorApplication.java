package io.agentgateway.projector;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Builds the PostgreSQL read models from the events topic. No web server: the projector has no
 * endpoint of its own, the ingress-api reads what it writes.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ProjectorApplication {

    public static void main(String[] args) {
        SpringApplication.run(ProjectorApplication.class, args);
    }
}
