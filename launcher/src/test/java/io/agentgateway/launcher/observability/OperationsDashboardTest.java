package io.agentgateway.launcher.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The Grafana dashboard and the Prometheus alert rules under {@code docs/operations/} use only metrics a running
 * gateway exports: every metric name their expressions name, and every exact label value they select on, is in the
 * Prometheus scrape of the embedded default's management port.
 */
class OperationsDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "docs", "operations", "grafana-dashboard.json");
    private static final Path ALERTS = Path.of("..", "docs", "operations", "prometheus-alerts.yaml");
    /** The metric families the gateway's services export (PromQL functions and keywords have none of these prefixes). */
    private static final Pattern METRIC = Pattern.compile("\\b((?:gateway|http_server|process|jvm|hikaricp|kafka)_[a-zA-Z0-9_:]+)(\\{[^}]*})?");
    private static final Pattern EXACT_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

    @Test
    void everyMetricTheDashboardAndTheAlertsUseIsExported() throws Exception {
        List<String> expressions = new ArrayList<>();
        JsonNode dashboard = GatewayJson.MAPPER.readTree(Files.readString(DASHBOARD));
        dashboard.get("panels").forEach(panel -> panel.get("targets").forEach(target -> expressions.add(target.get("expr").asString())));
        dashboard.at("/annotations/list").forEach(annotation -> expressions.add(annotation.get("expr").asString()));
        Map<String, Object> rules = new Yaml().load(Files.readString(ALERTS));
        for (Object group : (List<?>) rules.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                expressions.add(String.valueOf(((Map<?, ?>) rule).get("expr")));
            }
        }
        assertThat(expressions).hasSizeGreaterThan(20);

        // the gateway has decided something, so the request meters exist; the lag of the groups has been read once
        GatewayHarness.evaluate(GatewayHarness.newWorkspace(), GatewayHarness.action("docs", "page.read", "low"));
        String scrape = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(OperationsDashboardTest::scrape, body -> body.contains("gateway_kafka_consumer_lag{")
                        && body.contains("gateway_decisions_total{"));

        Set<String> missing = new TreeSet<>();
        Set<String> used = new TreeSet<>();
        for (String expression : expressions) {
            Matcher metric = METRIC.matcher(expression);
            while (metric.find()) {
                String name = metric.group(1);
                used.add(name);
                if (!Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(scrape).find()) {
                    missing.add(name);
                    continue;
                }
                if (metric.group(2) != null) {
                    Matcher label = EXACT_LABEL.matcher(metric.group(2));
                    while (label.find()) {
                        String selector = label.group(1) + "=\"" + label.group(2) + "\"";
                        if (!Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*" + Pattern.quote(selector)).matcher(scrape).find()) {
                            missing.add(name + "{" + selector + "}");
                        }
                    }
                }
            }
        }
        assertThat(used).as("what the files watch").contains("gateway_decisions_total", "gateway_ingress_evaluate_seconds_bucket",
                "http_server_requests_seconds_count", "gateway_ingress_caller_gave_up_total", "gateway_kafka_consumer_lag",
                "gateway_approvals_open", "gateway_notifier_deliveries_total", "gateway_killswitch_changes_total");
        assertThat(missing).as("named by the dashboard or the alerts but not exported").isEmpty();
        assertThat(scrape).as("the lag of the decision stream's and the projector's groups")
                .contains("gateway_kafka_consumer_lag{group=\"gateway-projector\"");
    }

    private static String scrape() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(GatewayHarness.gateway().managementUrl() + "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        return answer.body();
    }
}
