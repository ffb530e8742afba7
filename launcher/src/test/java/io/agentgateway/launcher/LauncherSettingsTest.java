package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LauncherSettingsTest {

    @Test
    void theReadModelsAreInTheEmbeddedDatabaseUnlessAnExternalOneIsNamed() {
        assertThat(LauncherSettings.from(Map.of()).jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:25432/gateway");
        assertThat(LauncherSettings.from(Map.of("GATEWAY_POSTGRES_PORT", "6543")).jdbcUrl())
                .isEqualTo("jdbc:postgresql://127.0.0.1:6543/gateway");
        assertThat(LauncherSettings.from(Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://db:5432/gw")).jdbcUrl())
                .isEqualTo("jdbc:postgresql://db:5432/gw");
    }
}
