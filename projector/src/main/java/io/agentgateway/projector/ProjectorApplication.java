package io.agentgateway.projector;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.PropertySource;

/**
 * Builds the PostgreSQL read models from the events topic. No web server: the projector has no
 * endpoint of its own, the ingress-api reads what it writes.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@PropertySource("classpath:io/agentgateway/projector/projector-defaults.properties")
public class ProjectorApplication {

    public static void main(String[] args) {
        application().run(args);
    }

    /** The projector as it must be started, also from the launcher: without a web server. */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(ProjectorApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application;
    }
}
