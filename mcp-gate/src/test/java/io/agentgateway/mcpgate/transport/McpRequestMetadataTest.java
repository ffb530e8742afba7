package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.mcpgate.transport.McpRequestMetadata.Checked;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * The checks of a request's metadata that an HTTP client library would not let a test send (a header twice,
 * characters a header value may not hold), and which requests they leave alone.
 */
class McpRequestMetadataTest {
    private static final String CALL = """
            {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos","_meta":{
              "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}""";

    private static HttpHeaders routing(String name) {
        HttpHeaders headers = new HttpHeaders();
        headers.add("MCP-Protocol-Version", "2026-07-28");
        headers.add("Mcp-Method", "tools/call");
        headers.add("Mcp-Name", name);
        return headers;
    }

    private static Checked check(HttpHeaders headers, String body) {
        return McpRequestMetadata.check(headers, Optional.of(IngressJson.REQUESTS.readTree(body)));
    }

    @Test
    void aConformingRequestIsServedAsTwentyTwentySixSevenTwentyEight() {
        assertThat(check(routing("list_repos"), CALL)).isEqualTo(Checked.STATELESS);
        assertThat(check(routing(" list_repos\t"), CALL)).as("optional whitespace is not part of the value")
                .isEqualTo(Checked.STATELESS);
    }

    @Test
    void aHeaderSentTwiceOrHoldingWhatAHeaderMayNotIsRefused() {
        // "Validation failure conditions include: ... A header value contains invalid characters."
        HttpHeaders twice = routing("list_repos");
        twice.add("Mcp-Name", "delete_repo");
        assertThat(check(twice, CALL).refusal().error().code()).isEqualTo(-32020);
        assertThat(check(routing("list_répos"), CALL).refusal().error().code()).isEqualTo(-32020);
        assertThat(check(routing("list_repos\u0000"), CALL).refusal().error().code()).isEqualTo(-32020);
        assertThat(check(routing("=?base64?bGlzdF9yZXBvcw==?="), CALL)).as("list_repos, encoded").isEqualTo(Checked.STATELESS);
        assertThat(check(routing("=?base64?/w==?="), CALL).refusal().error().code()).as("not UTF-8").isEqualTo(-32020);
        assertThat(check(routing("list_repos"), CALL.replace("list_repos", "=?base64?bGlzdF9yZXBvcw==?=")).refusal())
                .as("a body value that looks encoded is compared as it is").isNotNull();
    }

    @Test
    void anMcpNameOnAMethodWithoutANameIsRefused() {
        HttpHeaders headers = routing("read_file");
        headers.set("Mcp-Method", "tools/list");
        assertThat(check(headers, CALL.replace("tools/call", "tools/list")).refusal().error().code()).isEqualTo(-32020);
    }

    @Test
    void aNotificationIsCheckedTooAndItsRefusalNamesNoId() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("MCP-Protocol-Version", "2026-07-28");
        var refusal = check(headers, """
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":{
                  "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}""")
                .refusal();
        assertThat(refusal.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(refusal.id()).isNull();
        assertThat(refusal.error().code()).isEqualTo(-32020);
    }

    @Test
    void aSessionsRequestsAndInitializeAreLeftAlone() {
        HttpHeaders legacy = new HttpHeaders();
        legacy.add("MCP-Protocol-Version", "2025-11-25");
        assertThat(check(legacy, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}"))
                .isEqualTo(Checked.SESSION);
        assertThat(check(new HttpHeaders(), "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")).isEqualTo(Checked.SESSION);
        assertThat(McpRequestMetadata.check(new HttpHeaders(), Optional.empty())).isEqualTo(Checked.SESSION);
        assertThat(check(routing("x"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"))
                .isEqualTo(Checked.SESSION);
        // unparseable with the 2026-07-28 header: a 400 parse error
        assertThat(McpRequestMetadata.check(routing("x"), Optional.empty()).refusal().error().code()).isEqualTo(-32700);
    }
}
