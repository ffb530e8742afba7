package io.agentgateway.launcher.support;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the proxy's end-to-end tests share: connecting a tool, and reading a request's audit rows. */
public final class ProxyTestSupport {
    public static final Duration PROJECTED = Duration.ofSeconds(20);
    private static final List<String> AUDIT_COLUMNS = List.of("action", "risk_level", "risk_classification", "source",
            "agent_id", "decision", "resource_type", "resource_id");

    private ProxyTestSupport() {}

    public static String token() {
        return "ghp_" + UUID.randomUUID().toString().replace("-", "");
    }

    /** Creates or replaces the connection and waits until the read side serves it. */
    public static void connect(TestWorkspace ws, String tool, Map<String, Object> body) {
        String path = "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool;
        var put = client().send("PUT", path, ws.ownerJwt(), body);
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
        Object baseUrl = body.get("base_url");
        await().atMost(PROJECTED).until(() -> client().send("GET", path, ws.ownerJwt(), null),
                r -> r.status() == 200 && r.body().get("connected").booleanValue()
                        && (baseUrl == null || baseUrl.equals(r.text("base_url"))));
    }

    /** The projected audit row of a request, by its correlation id (waits for it). */
    public static Map<String, String> auditRow(String correlationId) {
        return await().atMost(PROJECTED).until(() -> auditRows("correlation_id = ?", correlationId).stream().findFirst().orElse(null),
                row -> row != null);
    }

    /** The projected audit rows of a workspace's proxied calls, oldest first (no wait). */
    public static List<Map<String, String>> proxyAuditRows(String workspaceId) throws Exception {
        return auditRows("workspace_id = ?::uuid and source = 'proxy'", workspaceId);
    }

    private static List<Map<String, String>> auditRows(String where, String value) throws Exception {
        try (Connection db = GatewayHarness.db();
             PreparedStatement query = db.prepareStatement("select " + String.join(", ", AUDIT_COLUMNS)
                     + ", payload_excerpt from audit_log where " + where + " order by occurred_at")) {
            query.setString(1, value);
            try (ResultSet rs = query.executeQuery()) {
                List<Map<String, String>> rows = new java.util.ArrayList<>();
                while (rs.next()) {
                    Map<String, String> row = new LinkedHashMap<>();
                    for (String column : AUDIT_COLUMNS) {
                        row.put(column, rs.getString(column));
                    }
                    row.put("payload", rs.getString("payload_excerpt"));
                    rows.add(row);
                }
                return rows;
            }
        }
    }
}
