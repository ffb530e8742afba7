package io.agentgateway.architecturetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code docker-compose.yml} cannot be brought up here (no Docker engine), so what would only fail at
 * {@code docker compose up} is held against the modules instead: every health gate has a check, each gateway
 * service's check asks the management port its module listens on, and the replicas of one service do not share
 * what must be theirs alone (a reply partition, a state or journal volume, a host port).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComposeFileTest {
    /** The jar each service mounts, by module, and the defaults file that says its management port. */
    private static final Map<String, String> MODULE_DEFAULTS = Map.of(
            "projector", "io/agentgateway/projector/projector-defaults.properties",
            "decision-stream", "io/agentgateway/decisionstream/decision-stream-defaults.properties",
            "notifier", "io/agentgateway/notifier/notifier-defaults.properties",
            "ingress-api", "io/agentgateway/ingressapi/ingress-api-defaults.properties");

    private Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    void readComposeFile() throws IOException {
        try (Reader reader = Files.newBufferedReader(Path.of("..", "docker-compose.yml"))) {
            Map<String, Object> compose = new Yaml().load(reader);
            services = (Map<String, Map<String, Object>>) compose.get("services");
        }
    }

    @Test
    void everyHealthGateHasAHealthcheck() {
        services.forEach((name, service) -> dependsOn(service).forEach((dependency, condition) -> {
            assertThat(services).as("%s depends on %s", name, dependency).containsKey(dependency);
            if ("service_healthy".equals(condition)) {
                assertThat(services.get(dependency)).as("%s waits for %s healthy", name, dependency)
                        .containsKey("healthcheck");
            }
        }));
    }

    @Test
    void eachGatewayServiceChecksTheManagementPortOfItsModule() throws IOException {
        int checked = 0;
        for (var entry : services.entrySet()) {
            String module = mountedModule(entry.getValue());
            if (module == null) {
                continue;
            }
            Map<String, Object> environment = environment(entry.getValue());
            assertThat(entry.getValue()).as(entry.getKey()).containsKey("healthcheck");
            assertThat(String.valueOf(environment.get("HEALTHCHECK_PORT"))).as("%s's HEALTHCHECK_PORT", entry.getKey())
                    .isEqualTo(managementPort(module));
            assertThat(String.valueOf(environment.get("HEALTHCHECK_PATH"))).startsWith("/actuator/health");
            checked++;
        }
        assertThat(checked).as("gateway services in the file").isGreaterThanOrEqualTo(6);
    }

    @Test
    void replicasDoNotShareWhatIsTheirsAlone() {
        List<Object> replyPartitions = new ArrayList<>();
        List<Object> namedVolumes = new ArrayList<>();
        List<Object> hostPorts = new ArrayList<>();
        services.forEach((name, service) -> {
            Map<String, Object> environment = environment(service);
            if ("ingress-api".equals(mountedModule(service))) {
                Object partition = environment.get("GATEWAY_INGRESS_REPLYPARTITION");
                assertThat(Integer.parseInt(String.valueOf(partition))).as("%s's reply partition", name)
                        .isLessThan(Integer.parseInt(String.valueOf(environment.get("GATEWAY_TOPICS_REPLYPARTITIONS"))));
                replyPartitions.add(partition);
            }
            for (Object volume : list(service.get("volumes"))) {
                String source = String.valueOf(volume).split(":")[0];
                if (!source.startsWith(".")) { // a named volume, not a jar mounted read-only
                    namedVolumes.add(source);
                }
            }
            for (Object port : list(service.get("ports"))) {
                hostPorts.add(String.valueOf(port).split(":")[0]);
            }
        });
        assertThat(replyPartitions).as("reply partitions of the ingress replicas").hasSizeGreaterThanOrEqualTo(2)
                .doesNotHaveDuplicates();
        assertThat(namedVolumes).as("named volumes").doesNotHaveDuplicates();
        assertThat(hostPorts).as("published host ports").doesNotHaveDuplicates();
    }

    private static String managementPort(String module) throws IOException {
        Properties defaults = new Properties();
        try (InputStream in = ComposeFileTest.class.getClassLoader().getResourceAsStream(MODULE_DEFAULTS.get(module))) {
            assertThat(in).as(MODULE_DEFAULTS.get(module)).isNotNull();
            defaults.load(in);
        }
        return defaults.getProperty("management.server.port");
    }

    /** The module whose jar the service runs ({@code ./<module>/target/...:/app/app.jar}), or null. */
    private static String mountedModule(Map<String, Object> service) {
        for (Object volume : list(service.get("volumes"))) {
            String source = String.valueOf(volume).split(":")[0];
            for (String module : MODULE_DEFAULTS.keySet()) {
                if (source.startsWith("./" + module + "/target/")) {
                    return module;
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> environment(Map<String, Object> service) {
        Object environment = service.get("environment");
        return environment instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> dependsOn(Map<String, Object> service) {
        Object dependsOn = service.get("depends_on");
        Map<String, Object> conditions = new LinkedHashMap<>();
        if (dependsOn instanceof Map<?, ?> map) {
            map.forEach((dependency, how) -> conditions.put(String.valueOf(dependency),
                    how instanceof Map<?, ?> h ? h.get("condition") : null));
        } else {
            list(dependsOn).forEach(dependency -> conditions.put(String.valueOf(dependency), "service_started"));
        }
        return conditions;
    }

    private static List<Object> list(Object value) {
        return value instanceof List<?> items ? List.copyOf(items) : List.of();
    }
}
