package io.agentgateway.launcher.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP 2026-07-28's routing headers through the running gateway (a real broker, decision stream, projector and
 * PostgreSQL) in front of a real MCP upstream that records every tool call it runs: a {@code tools/call} whose
 * {@code Mcp-Name} names another tool than its body (streamable-http.mdx, "Server Validation": "Servers that process
 * the request body MUST reject requests where the values specified in the headers do not match the corresponding
 * values in the request body") is refused 400 with -32020 and never reaches the upstream, is never decided, and never
 * becomes an audit row, neither of the tool its header names nor of the one its body calls. Something in front of the
 * gateway that routes or applies policy by header would otherwise see another tool than the one that runs.
 */
class McpRoutingHeadersEndToEndTest {
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();
    private static final String VERSION = "2026-07-28";

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    /** One 2026-07-28 tools/call of {@code tool} (a marker argument), sent with the given routing headers. */
    private static HttpResponse<String> call(TestWorkspace ws, String agentId, String tool, String marker,
                                             String versionHeader, String nameHeader) {
        ObjectNode request = GatewayJson.MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
        ObjectNode params = request.putObject("params").put("name", tool);
        params.putObject("arguments").put("marker", marker);
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "routing-test").put("version", "1.0.0");
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + McpGateClients.GATE))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + ws.apiKey()).header("X-Agent-Id", agentId)
                .header("MCP-Protocol-Version", versionHeader).header("Mcp-Method", "tools/call")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString()));
        if (nameHeader != null) {
            http.header("Mcp-Name", nameHeader);
        }
        return McpGateClients.send(http.build());
    }

    /** An audit row of the workspace: its action (the tool), agent and payload excerpt (which names the marker). */
    private record Row(String action, String agentId, String payload) {}

    private static List<Row> auditRows(TestWorkspace ws) throws SQLException {
        try (Connection c = GatewayHarness.db();
             PreparedStatement s = c.prepareStatement("select action, agent_id, coalesce(payload_excerpt, '') from audit_log"
                     + " where workspace_id = ?::uuid order by occurred_at")) {
            s.setString(1, ws.id());
            List<Row> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
            return rows;
        }
    }

    @Test
    void aToolCallWhoseMcpNameIsAnotherToolNeverReachesTheUpstreamAndLeavesNoAuditRow() throws SQLException {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");

        // the control: a conforming call of list_repos (low risk, allowed by the default policies) runs once
        String ran = UUID.randomUUID().toString();
        HttpResponse<String> allowed = call(ws, "agent-conforming", "list_repos", ran, VERSION, "list_repos");
        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(UPSTREAM.callsOf("list_repos", ran)).hasSize(1);
        int callsBefore = UPSTREAM.calls.size();

        // the header says read_file, the body runs list_repos: refused before anything is done with it
        String mismatched = UUID.randomUUID().toString();
        HttpResponse<String> refused = call(ws, "agent-mismatch", "list_repos", mismatched, VERSION, "read_file");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode error = GatewayJson.MAPPER.readTree(refused.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32020);
        assertThat(error.get("message").asString()).contains("Mcp-Name");
        // the header says list_repos, the body calls delete_repo (which the default policies hold): no approval either
        String held = UUID.randomUUID().toString();
        HttpResponse<String> refusedHold = call(ws, "agent-mismatch", "delete_repo", held, VERSION, "list_repos");
        assertThat(refusedHold.statusCode()).as(refusedHold.body()).isEqualTo(400);
        // no Mcp-Name at all, and a version header that is not the body's: refused too
        String unnamed = UUID.randomUUID().toString();
        assertThat(call(ws, "agent-mismatch", "list_repos", unnamed, VERSION, null).statusCode()).isEqualTo(400);
        assertThat(call(ws, "agent-mismatch", "list_repos", unnamed, "2025-11-25", "list_repos").statusCode()).isEqualTo(400);

        // a conforming call after them, as a barrier: once its audit row is projected, every row the refused requests
        // could have caused (decided before it, in the workspace's log order) would be there too
        String barrier = UUID.randomUUID().toString();
        assertThat(call(ws, "agent-mismatch", "list_repos", barrier, VERSION, "list_repos").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> auditRows(ws).stream().anyMatch(row -> row.payload().contains(barrier)));

        assertThat(UPSTREAM.calls.size()).as("only the barrier ran after the control").isEqualTo(callsBefore + 1);
        assertThat(UPSTREAM.callsOf("list_repos", mismatched)).isEmpty();
        assertThat(UPSTREAM.callsOf("delete_repo", held)).isEmpty();
        assertThat(UPSTREAM.callsOf("list_repos", unnamed)).isEmpty();
        List<Row> rows = auditRows(ws);
        assertThat(rows).as("no decision on either tool, no approval opened").noneMatch(row -> row.payload().contains(mismatched)
                || row.payload().contains(held) || row.payload().contains(unnamed));
        assertThat(rows).noneMatch(row -> "read_file".equals(row.action()) || "delete_repo".equals(row.action()));
        assertThat(rows).filteredOn(row -> "agent-mismatch".equals(row.agentId())).extracting(Row::action)
                .containsExactly("list_repos");
        var approvals = GatewayHarness.client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/approvals?limit=10",
                ws.ownerJwt(), null);
        assertThat(approvals.status()).isEqualTo(200);
        assertThat(approvals.body().get("items")).as("the workspace only ever ran list_repos: no approval").isEmpty();
    }
}
