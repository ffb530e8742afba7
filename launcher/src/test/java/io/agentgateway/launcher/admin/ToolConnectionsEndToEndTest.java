package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.secret.SecretBox;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Tool connections through the whole gateway: the admin API, the log, the decision stream, the
 * projector and back. The access token and the webhook secret are write-only: no response, no log
 * line, no Kafka record and no table holds them in clear.
 */
class ToolConnectionsEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(20);

    private static String tools(TestWorkspace ws) {
        return "/admin/v1/workspaces/" + ws.id() + "/tools";
    }

    private static GatewayHttpClient.Response get(TestWorkspace ws, String path) {
        return client().send("GET", tools(ws) + path, ws.ownerJwt(), null);
    }

    @Test
    void createRotateAndReadWithoutTheSecretsEverShowingUp() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        String chosenSecret = "whsec-" + UUID.randomUUID();
        List<String> responses = new ArrayList<>();
        List<String> logged;
        String rotatedSecret;

        try (CapturedLogLines logs = CapturedLogLines.start()) {
            var created = client().send("PUT", tools(ws) + "/code_host", ws.ownerJwt(), Map.of(
                    "config", Map.of("access_token", token, "repos", List.of("acme/api", "acme/web"), "org", "acme"),
                    "webhook_secret", chosenSecret,
                    "base_url", "https://code.example/api/v3"));
            responses.add(created.rawBody());
            assertThat(created.status()).as(created.rawBody()).isEqualTo(200);

            JsonNode shown = await().atMost(PROJECTED).until(() -> get(ws, "/code_host"), r -> r.status() == 200).body();
            responses.add(shown.toString());
            assertThat(shown.get("connected").booleanValue()).isTrue();
            assertThat(shown.get("accessTokenSet").booleanValue()).isTrue();
            assertThat(shown.get("webhookSecretSet").booleanValue()).isTrue();
            assertThat(shown.at("/config/repos").valueStream().map(JsonNode::asString)).containsExactly("acme/api", "acme/web");
            assertThat(shown.get("base_url").asString()).isEqualTo("https://code.example/api/v3");
            assertThat(shown.get("updatedBy").asString()).isEqualTo(ws.ownerId());
            assertThat(shown.at("/webhook/payloadUrl").asString())
                    .isEqualTo(GatewayHarness.gateway().baseUrl() + "/functions/v1/webhook-code-host");
            long versionBefore = shown.get("version").longValue();

            var rotated = client().send("POST", tools(ws) + "/code_host/webhook-secret", ws.ownerJwt(), null);
            responses.add(rotated.rawBody());
            assertThat(rotated.status()).as(rotated.rawBody()).isEqualTo(200);
            rotatedSecret = rotated.body().at("/webhook/secret").asString();
            assertThat(rotatedSecret).matches("[0-9a-f]{64}");
            assertThat(rotated.body().at("/webhook/contentType").asString()).isEqualTo("application/json");

            JsonNode afterRotation = await().atMost(PROJECTED).until(() -> get(ws, "/code_host").body(),
                    body -> body.get("version").longValue() > versionBefore);
            responses.add(afterRotation.toString());
            responses.add(get(ws, "").rawBody());
            assertThat(afterRotation.get("accessTokenSet").booleanValue()).isTrue();
            logged = logs.lines();
        }

        // stored sealed, opening to what the admin sent and what the rotation showed
        SecretBox box = SecretBox.fromBase64Key(GatewayHarness.gateway().secrets().secretsKey());
        Map<String, String> row = connectionRow(ws, "code_host");
        assertThat(row.get("sealed_access_token")).startsWith("v1.");
        assertThat(box.open(row.get("sealed_access_token"))).isEqualTo(token);
        assertThat(box.open(row.get("sealed_webhook_secret"))).isEqualTo(rotatedSecret);

        List<String> secrets = List.of(token, chosenSecret, rotatedSecret);
        // only the rotation's own answer shows its secret, once
        assertThat(responses.stream().filter(r -> r.contains(rotatedSecret))).hasSize(1);
        for (String secret : List.of(token, chosenSecret)) {
            assertThat(responses).noneMatch(r -> r.contains(secret));
        }
        assertThat(logged).as("log lines of the round trip").isNotEmpty();
        for (String line : logged) {
            assertThat(secrets).as("log line: %s", line).noneMatch(line::contains);
        }
        assertThat(everyKafkaRecord()).as("records of every topic, the changelogs included").noneMatch(
                record -> secrets.stream().anyMatch(record::contains));
        assertThat(everyTextColumnOfToolConnections()).noneMatch(value -> secrets.stream().anyMatch(value::contains));
    }

    @Test
    void theKillSwitchPauseShowsInTheToolSettings() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(client().send("PUT", tools(ws) + "/mcp", ws.ownerJwt(), Map.of(
                "mcp_server_url", "https://mcp.example/sse", "mcp_transport", "sse")).status()).isEqualTo(200);
        JsonNode mcp = await().atMost(PROJECTED).until(() -> get(ws, "/mcp"), r -> r.status() == 200).body();
        assertThat(mcp.get("paused").booleanValue()).isFalse();
        assertThat(mcp.get("mcp_auth_type").asString()).as("the default").isEqualTo("bearer");

        assertThat(killSwitch(ws, "pause_tool", "mcp").status()).isEqualTo(200);
        await().atMost(PROJECTED).until(() -> get(ws, "/mcp").body().get("paused").booleanValue());
        assertThat(listed(ws, "mcp").get("paused").booleanValue()).isTrue();
        assertThat(listed(ws, "chat").get("paused").booleanValue()).isFalse();

        assertThat(killSwitch(ws, "resume_tool", "mcp").status()).isEqualTo(200);
        await().atMost(PROJECTED).until(() -> !get(ws, "/mcp").body().get("paused").booleanValue());
    }

    @Test
    void deletingRemovesTheConnectionAndItsSecrets() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(client().send("PUT", tools(ws) + "/issue_tracker", ws.ownerJwt(), Map.of(
                "config", Map.of("organization_id", "org-1", "team_id", "team-1", "access_token", "lin_api_x"))).status())
                .isEqualTo(200);
        await().atMost(PROJECTED).until(() -> get(ws, "/issue_tracker").status() == 200);

        assertThat(client().send("DELETE", tools(ws) + "/issue_tracker", ws.ownerJwt(), null).status()).isEqualTo(200);
        await().atMost(PROJECTED).until(() -> get(ws, "/issue_tracker").status() == 404);
        assertThat(listed(ws, "issue_tracker").get("connected").booleanValue()).isFalse();
        assertThat(connectionRow(ws, "issue_tracker")).isEmpty();

        var again = client().send("DELETE", tools(ws) + "/issue_tracker", ws.ownerJwt(), null);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.text("error")).isEqualTo("Tool connection not found");
    }

    @Test
    void theErrorCases() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String member = "member-" + ws.id();
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + member, ws.ownerJwt(),
                Map.of("email", member + "@test.local", "role", "member")).status()).isEqualTo(200);
        String memberJwt = GatewayHarness.jwt(member, member + "@test.local");

        var unauthenticated = client().send("PUT", tools(ws) + "/docs", null, Map.of());
        assertThat(unauthenticated.status()).isEqualTo(401);

        var forbiddenWrite = client().send("PUT", tools(ws) + "/docs", memberJwt, Map.of("base_url", "https://docs.example"));
        assertThat(forbiddenWrite.status()).isEqualTo(403);
        assertThat(forbiddenWrite.text("error")).isEqualTo("Admin or owner role required");
        await().atMost(PROJECTED).until(() -> client().send("GET", tools(ws), memberJwt, null).status() == 403);

        var badRepo = client().send("PUT", tools(ws) + "/code_host", ws.ownerJwt(), Map.of("config", Map.of("repos", List.of("acme"))));
        assertThat(badRepo.status()).isEqualTo(400);
        assertThat(badRepo.text("error")).isEqualTo("config.repos entries must have the form owner/repo");

        var wrongTool = client().send("PUT", tools(ws) + "/chat", ws.ownerJwt(), Map.of("config", Map.of("org", "acme")));
        assertThat(wrongTool.status()).isEqualTo(400);
        assertThat(wrongTool.text("error")).isEqualTo("config.org is only for the code_host tool");

        var mcpWithoutUrl = client().send("PUT", tools(ws) + "/mcp", ws.ownerJwt(), Map.of("mcp_transport", "http"));
        assertThat(mcpWithoutUrl.text("error")).isEqualTo("mcp_server_url is required for the mcp tool");

        var paused = client().send("PUT", tools(ws) + "/docs", ws.ownerJwt(), Map.of("paused", true));
        assertThat(paused.status()).isEqualTo(400);
        assertThat(paused.text("error")).isEqualTo("paused is read-only: use the kill switch (pause_tool / resume_tool)");

        var notConnected = client().send("POST", tools(ws) + "/issue_tracker/webhook-secret", ws.ownerJwt(), null);
        assertThat(notConnected.status()).isEqualTo(404);
        assertThat(notConnected.rawBody()).doesNotContain("secret\"");

        var unknownTool = client().send("GET", tools(ws) + "/jira", ws.ownerJwt(), null);
        assertThat(unknownTool.status()).isEqualTo(400);
    }

    private static JsonNode listed(TestWorkspace ws, String tool) {
        return get(ws, "").body().get("items").valueStream()
                .filter(item -> item.get("tool").asString().equals(tool)).findFirst().orElseThrow();
    }

    private static Map<String, String> connectionRow(TestWorkspace ws, String tool) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select sealed_access_token, sealed_webhook_secret from tool_connections where workspace_id = ?::uuid and tool = ?")) {
            s.setString(1, ws.id());
            s.setString(2, tool);
            try (ResultSet rs = s.executeQuery()) {
                Map<String, String> row = new HashMap<>();
                if (rs.next()) {
                    row.put("sealed_access_token", rs.getString(1));
                    row.put("sealed_webhook_secret", rs.getString(2));
                }
                return row;
            }
        }
    }

    private static List<String> everyTextColumnOfToolConnections() throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select row_to_json(t)::text from tool_connections t"); ResultSet rs = s.executeQuery()) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
            return rows;
        }
    }

    /** Every record value of every topic of the broker, as text, from the beginning to the current end. */
    private static List<String> everyKafkaRecord() throws Exception {
        String bootstrap = GatewayHarness.gateway().bootstrapServers();
        Set<String> topics;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            topics = admin.listTopics().names().get();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = topics.stream()
                    .flatMap(topic -> consumer.partitionsFor(topic).stream())
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read the topics to their end");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() != null) {
                        values.add(new String(record.value(), StandardCharsets.UTF_8));
                    }
                }
            }
            assertThat(values).as("the commands of this test were read").anyMatch(v -> v.contains("upsert_tool_connection"));
            return values;
        }
    }
}
