package io.agentgateway.gatewayconfig;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class QuietConnectionPoolLogTest {

    @Configuration(proxyBeanMethods = false)
    static class NothingElse {}

    @Test
    void everySpringApplicationGetsIt() {
        SpringApplication application = new SpringApplication(NothingElse.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.getEnvironment().getProperty(QuietConnectionPoolLog.LOGGER_LEVEL)).isEqualTo("ERROR");
        }
    }

    @Test
    void setsHikarisBrokenConnectionWarningToError() {
        StandardEnvironment environment = new StandardEnvironment();
        new QuietConnectionPoolLog().postProcessEnvironment(environment, new SpringApplication());
        new QuietConnectionPoolLog().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(QuietConnectionPoolLog.LOGGER_LEVEL)).isEqualTo("ERROR");
        assertThat(environment.getPropertySources().stream()
                .filter(source -> source.getName().equals(QuietConnectionPoolLog.class.getName()))).hasSize(1);
    }

    @Test
    void anOperatorsSettingWins() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("operator",
                Map.of(QuietConnectionPoolLog.LOGGER_LEVEL, "WARN")));
        new QuietConnectionPoolLog().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(QuietConnectionPoolLog.LOGGER_LEVEL)).isEqualTo("WARN");
    }
}
