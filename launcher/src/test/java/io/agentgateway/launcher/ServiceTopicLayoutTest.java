package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.decisionstream.DecisionStreamApplication;
import io.agentgateway.ingressapi.IngressApplication;
import io.agentgateway.notifier.NotifierApplication;
import io.agentgateway.projector.ProjectorApplication;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.annotation.PropertySource;

/**
 * Every service creates the topics it finds missing, so whichever starts first decides the topics' replication:
 * a service whose own defaults set {@code gateway.topics.*} gives a cluster topics unlike the other services'.
 * The projector and the ingress once carried {@code replication-factor=1}; the projector starts first in a
 * cluster, so a 3-broker deployment got topics with one replica each, which stop while their broker is down
 * (the fault suite's broker kills, docs/operating-a-cluster.md). The layout's defaults live in
 * {@link TopicLayoutProperties} alone.
 */
class ServiceTopicLayoutTest {

    @ParameterizedTest
    @ValueSource(classes = {ProjectorApplication.class, IngressApplication.class, DecisionStreamApplication.class,
            NotifierApplication.class})
    void aServiceDefaultsToTheSharedLayoutWithReplicationDerivedFromTheCluster(Class<?> application) throws IOException {
        TopicLayoutProperties shared = bind(Map.of());
        assertThat(shared.replicationFactor()).as("derived from the cluster").isZero();
        assertThat(bind(defaultsOf(application))).isEqualTo(shared);
    }

    private static Map<String, String> defaultsOf(Class<?> application) throws IOException {
        PropertySource source = application.getAnnotation(PropertySource.class);
        assertThat(source).as(application.getSimpleName() + " loads its defaults with @PropertySource").isNotNull();
        Properties properties = new Properties();
        for (String location : List.of(source.value())) {
            try (InputStream in = application.getClassLoader().getResourceAsStream(location.replace("classpath:", ""))) {
                assertThat(in).as(location).isNotNull();
                properties.load(in);
            }
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map<String, String> asMap = (Map) properties;
        return asMap;
    }

    private static TopicLayoutProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("gateway.topics", TopicLayoutProperties.class);
    }
}
