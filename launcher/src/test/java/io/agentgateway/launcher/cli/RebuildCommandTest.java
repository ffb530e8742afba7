package io.agentgateway.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code rebuild} against the running embedded gateway: after it, every read-model table holds what the
 * live projection held row for row (the live tables, now in the archive schema, are the reference;
 * {@code audit_log.projected_at}, when a row was written, is the one column not compared), and the
 * gateway goes on: its admin API reads the rebuilt tables and new decisions land in them.
 */
class RebuildCommandTest {
    /** Table to its primary key. */
    private static final Map<String, String> TABLES = Map.ofEntries(
            Map.entry("workspaces", "id"),
            Map.entry("workspace_members", "workspace_id, user_id"),
            Map.entry("api_keys", "key_id"),
            Map.entry("policies", "workspace_id, policy_id"),
            Map.entry("audit_log", "id"),
            Map.entry("approval_requests", "id"),
            Map.entry("kill_switch_history", "audit_log_id"),
            Map.entry("tool_connections", "workspace_id, tool"),
            // the Merkle log's copies: the rebuild from the event log gives the same leaves, nodes and checkpoints
            Map.entry("evidence_entries", "workspace_id, sequence"),
            Map.entry("evidence_nodes", "workspace_id, level, node_index"),
            Map.entry("evidence_checkpoints", "event_id"));

    @Test
    void rebuildsTheRunningGatewaysReadModelsRowForRowAndTheGatewayGoesOn() throws Exception {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        var ws = GatewayHarness.newWorkspace();
        GatewayHttpClient client = GatewayHarness.client();
        String policies = "/admin/v1/workspaces/" + ws.id() + "/policies";
        var policy = client.send("POST", policies, ws.ownerJwt(), Map.of("name", "no merges by bots", "priority", 10,
                "decision", "block", "match", Map.of("tools", List.of("code_host"), "actions", List.of("pull_request.merge"),
                        "agentIds", List.of("bot-*"))));
        assertThat(policy.status()).as(policy.rawBody()).isIn(200, 201);
        client.send("POST", policies, ws.ownerJwt(), Map.of("name", "reads", "priority", 20, "decision", "allow",
                "match", Map.of("tools", List.of("docs"))));
        var connection = client.send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("config", Map.of("access_token", "ghp-rebuild-test", "repos", List.of("acme/api"), "org", "acme"),
                        "base_url", "https://code-host.example"));
        assertThat(connection.status()).as(connection.rawBody()).isEqualTo(200);
        List<String> auditIds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            auditIds.add(evaluate(ws, "docs", "page.read", "bot-" + i));
        }
        auditIds.add(evaluate(ws, "code_host", "pull_request.merge", "bot-1"));
        auditIds.add(evaluate(ws, "chat", "channel.archive", "agent-1")); // opens an approval
        assertThat(killSwitch(ws, "enable", null)).isEqualTo(200);
        auditIds.add(evaluate(ws, "docs", "page.read", "agent-1"));
        assertThat(killSwitch(ws, "disable", null)).isEqualTo(200);
        assertThat(killSwitch(ws, "pause_tool", "mcp")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> auditRows(gateway, auditIds) == auditIds.size()
                && client.send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(), null).status() == 200);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = RebuildCommand.run(List.of("--bootstrap-servers", gateway.bootstrapServers(),
                "--jdbc-url=" + gateway.jdbcUrl(), "--db-user", gateway.postgresUser(),
                "--db-password", gateway.postgresPassword()), print(out), print(err));

        assertThat(exit).as(text(err)).isZero();
        assertThat(text(out)).contains("switching", "events/s", "%").containsPattern("Rebuilt \\d+ tables from [\\d,]+ events");
        String archive = newestArchive(gateway);
        assertThat(text(out)).contains(archive);
        try (Connection db = connect(gateway)) {
            for (Map.Entry<String, String> table : TABLES.entrySet()) {
                List<Map<String, Object>> rebuilt = rows(db, "public." + table.getKey(), table.getValue(), ws.id());
                assertThat(rebuilt).as(table.getKey()).containsExactlyElementsOf(
                        rows(db, archive + "." + table.getKey(), table.getValue(), ws.id()));
            }
            assertThat(rows(db, "public.audit_log", "id", ws.id())).extracting(row -> row.get("id").toString())
                    .containsAll(auditIds);
        }

        // the ingress reads the rebuilt tables (membership, audit log), and new decisions land in them
        String after = evaluate(ws, "docs", "page.read", "agent-after");
        await().atMost(Duration.ofSeconds(30)).until(() -> auditRows(gateway, List.of(after)) == 1);
        var page = client.send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=100", ws.ownerJwt(), null);
        assertThat(page.status()).as(page.rawBody()).isEqualTo(200);
        List<String> listed = new ArrayList<>();
        page.body().get("items").forEach(item -> listed.add(item.get("id").asText()));
        assertThat(listed).contains(after).containsAll(auditIds);
    }

    @Test
    void badArgumentsAreOneLineAndExitCodeTwo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(RebuildCommand.run(List.of("--bogus"), print(new ByteArrayOutputStream()), print(err))).isEqualTo(2);
        assertThat(text(err).lines()).singleElement().asString().contains("unknown option --bogus");

        err.reset();
        assertThat(RebuildCommand.run(List.of("--jdbc-url", "mysql://x"), print(new ByteArrayOutputStream()), print(err)))
                .isEqualTo(2);
        assertThat(text(err).lines()).singleElement().asString().contains("--jdbc-url must be a PostgreSQL JDBC URL");

        err.reset();
        assertThat(RebuildCommand.run(List.of("--timeout"), print(new ByteArrayOutputStream()), print(err))).isEqualTo(2);
        assertThat(text(err).lines()).singleElement().asString().contains("--timeout needs a value");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(RebuildCommand.run(List.of("--help"), print(out), print(err))).isZero();
        assertThat(text(out)).contains("--bootstrap-servers", "--jdbc-url", "read_models_archive_");
    }

    @Test
    void anUnreachableDatabaseOrBrokerIsOneLineAndExitCodeOne() {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = RebuildCommand.run(List.of("--bootstrap-servers", gateway.bootstrapServers(),
                "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/gateway", "--timeout", "2"), print(new ByteArrayOutputStream()),
                print(err));
        assertThat(exit).isEqualTo(1);
        assertThat(text(err).lines()).singleElement().asString()
                .startsWith("rebuild failed: PostgreSQL at jdbc:postgresql://127.0.0.1:1/gateway");

        err.reset();
        exit = RebuildCommand.run(List.of("--bootstrap-servers", "127.0.0.1:1", "--jdbc-url", gateway.jdbcUrl(),
                "--db-user", gateway.postgresUser(), "--db-password", gateway.postgresPassword(), "--timeout", "2"),
                print(new ByteArrayOutputStream()), print(err));
        assertThat(exit).isEqualTo(1);
        assertThat(text(err).lines()).singleElement().asString()
                .isEqualTo("rebuild failed: Kafka at 127.0.0.1:1 did not answer within 2 s: is the gateway (or its broker) running?");
    }

    private static String evaluate(TestWorkspace ws, String tool, String action, String agent) {
        var response = GatewayHarness.evaluate(ws, Map.of("tool", tool, "action", action, "riskLevel", "low",
                "agentId", agent));
        assertThat(response.status()).as(response.rawBody()).isEqualTo(200);
        return response.text("auditLogId");
    }

    private static int killSwitch(TestWorkspace ws, String action, String tool) {
        return GatewayHarness.killSwitch(ws, action, tool).status();
    }

    private static long auditRows(EmbeddedGateway gateway, List<String> ids) throws SQLException {
        try (Connection db = connect(gateway);
             var statement = db.prepareStatement("select count(*) from audit_log where id = any(?::uuid[])")) {
            statement.setArray(1, db.createArrayOf("text", ids.toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static String newestArchive(EmbeddedGateway gateway) throws SQLException {
        try (Connection db = connect(gateway); Statement statement = db.createStatement();
             ResultSet rows = statement.executeQuery("select nspname from pg_namespace"
                     + " where nspname like 'read_models_archive_%' order by nspname desc limit 1")) {
            assertThat(rows.next()).as("an archive schema").isTrue();
            return rows.getString(1);
        }
    }

    /** Every column but the bookkeeping projected_at, with arrays as lists, in key order. */
    /**
     * The rows of one workspace: other test classes share this gateway and may still be writing to
     * their own workspaces, whose rows after the switch land in the new tables only.
     */
    private static List<Map<String, Object>> rows(Connection db, String table, String key, String workspaceId) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        String workspaceColumn = table.endsWith(".workspaces") ? "id" : "workspace_id";
        try (PreparedStatement statement = db.prepareStatement(
                "select * from " + table + " where " + workspaceColumn + "::text = ? order by " + key)) {
            statement.setString(1, workspaceId);
            ResultSet result = statement.executeQuery();
            ResultSetMetaData meta = result.getMetaData();
            while (result.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int column = 1; column <= meta.getColumnCount(); column++) {
                    String name = meta.getColumnName(column);
                    if (!name.equals("projected_at")) {
                        Object value = result.getObject(column);
                        row.put(name, value instanceof Array array ? Arrays.asList((Object[]) array.getArray()) : value);
                    }
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Connection connect(EmbeddedGateway gateway) throws SQLException {
        return DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword());
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
