package io.agentgateway.notifier;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.PropertySource;

/**
 * Delivers the notifications of {@code gateway.notifications.v1} by email and chat webhook, at most
 * once per notification and channel, with retries and a dead-letter topic. See README.md.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@PropertySource("classpath:io/agentgateway/notifier/notifier-defaults.properties")
public class NotifierApplication {

    public static void main(String[] args) {
        application().run(args);
    }

    /**
     * The notifier as a {@link SpringApplication} with no web server (it serves nothing over HTTP,
     * even when a web starter is on the classpath, as in the launcher).
     */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(NotifierApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application;
    }
}
