package io.agentgateway.mcpgate.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.mcpgate.session.McpRevisions.Era;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.web.IngressJson;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Which revision a request speaks, and so whether its held call may be a task, and how 2026-07-28 results look. */
class McpRevisionsTest {
    private static final ApiKeyCredential KEY = new ApiKeyCredential(UUID.randomUUID(), "ab".repeat(32));

    private static JsonRpcRequest request(String json) {
        return JsonRpcRequest.parse(IngressJson.REQUESTS.readTree(json));
    }

    @Test
    void aClientThatNamesNoVersionOrAnOlderOneGetsNoTasks() {
        McpCaller caller = new McpCaller(KEY, null, "c");
        assertThat(McpRevisions.of(caller, request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")))
                .isEqualTo(Era.NONE);
        assertThat(McpRevisions.of(caller.withVersionHeader("2025-06-18"),
                request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")).tasks()).isEqualTo(Tasks.NONE);
    }

    @Test
    void a2025_11_25SessionOrHeaderHasTheTasksUtility() {
        McpClientSession session = new McpClientSession("s", null, null);
        session.negotiated("2025-11-25");
        McpCaller caller = new McpCaller(KEY, null, "c").withClient(session);
        Era era = McpRevisions.of(caller, request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}"));
        assertThat(era.tasks()).isEqualTo(Tasks.UTILITY);
        assertThat(era.stateless()).isFalse();
        // the session's negotiated version wins over a header
        assertThat(caller.withVersionHeader("2025-06-18").protocolVersion()).isEqualTo("2025-11-25");
        assertThat(McpRevisions.of(new McpCaller(KEY, null, "c").withVersionHeader("2025-11-25"),
                request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")).tasks()).isEqualTo(Tasks.UTILITY);
    }

    @Test
    void a2026_07_28RequestHasTheExtensionOnlyWhenItDeclaresIt() {
        McpCaller caller = new McpCaller(KEY, null, "c");
        Era declared = McpRevisions.of(caller, request("""
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{
                  "io.modelcontextprotocol/protocolVersion":"2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}"""));
        assertThat(declared).isEqualTo(new Era("2026-07-28", true, Tasks.EXTENSION));
        Era undeclared = McpRevisions.of(caller, request("""
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{
                  "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"""));
        assertThat(undeclared).isEqualTo(new Era("2026-07-28", true, Tasks.NONE));
    }

    @Test
    void aVersionTheGateDoesNotSpeakIsRefusedWithTheOnesItDoes() {
        JsonRpcError refused = catchThrowableOfType(JsonRpcError.class, () -> McpRevisions.of(new McpCaller(KEY, null, "c"),
                request("""
                        {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
                          "io.modelcontextprotocol/protocolVersion":"1900-01-01"}}}""")));
        assertThat(refused.code()).isEqualTo(-32022);
        assertThat(refused.data().get("requested").asString()).isEqualTo("1900-01-01");
        assertThat(refused.data().get("supported").get(0).asString()).isEqualTo("2026-07-28");
    }

    @Test
    void a2026_07_28ResultSaysItsTypeAndWhoAnsweredAndACacheableOneHowLongToKeepIt() {
        JsonNode list = McpRevisions.stateless("tools/list", IngressJson.REQUESTS.readTree("{\"tools\":[]}"));
        assertThat(list.get("resultType").asString()).isEqualTo("complete");
        assertThat(list.get("ttlMs").asInt()).isZero();
        assertThat(list.get("cacheScope").asString()).isEqualTo("private");
        assertThat(list.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asString()).isEqualTo("service-mcp-gate");
        JsonNode task = McpRevisions.stateless("tools/call", IngressJson.REQUESTS.readTree("{\"resultType\":\"task\"}"));
        assertThat(task.get("resultType").asString()).isEqualTo("task");
        assertThat(task.has("ttlMs")).isFalse();
    }
}
