package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.secret.SecretsProperties;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Issue 15: sealed session ids any replica with the secrets key opens, for the key that opened them only. */
class McpSessionIdsTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private final ApiKeyCredential key = new ApiKeyCredential(UUID.randomUUID(), "hash-a");

    @Test
    void anotherReplicaWithTheSameSecretsKeyOpensTheIdForTheSameKeyOnly() {
        String id = new McpSessionIds(new SecretsProperties(KEY)).issue(key, "2025-06-18").orElseThrow();
        McpSessionIds otherReplica = new McpSessionIds(new SecretsProperties(KEY));
        assertThat(otherReplica.open(id, key)).contains("2025-06-18");
        assertThat(id.chars()).allMatch(c -> c >= 0x21 && c <= 0x7E);
        assertThat(otherReplica.open(id, new ApiKeyCredential(key.workspaceId(), "hash-b"))).isEmpty();
        assertThat(otherReplica.open(id, new ApiKeyCredential(UUID.randomUUID(), "hash-a"))).isEmpty();
        String altered = id.substring(0, id.length() - 2) + (id.endsWith("AA") ? "BB" : "AA");
        assertThat(otherReplica.open(altered, key)).isEmpty();
        assertThat(otherReplica.open("mcp1.nonsense", key)).isEmpty();
        assertThat(otherReplica.open(UUID.randomUUID().toString(), key)).isEmpty();
    }

    @Test
    void theRelayedClientCapabilitiesTravelInTheIdAndNothingElseOfTheDeclaration() {
        var declared = io.agentgateway.httpedge.web.IngressJson.REQUESTS.readTree(
                "{\"elicitation\":{\"form\":{}},\"sampling\":{},\"roots\":{\"listChanged\":true},\"experimental\":{\"x\":{}}}");
        String id = new McpSessionIds(new SecretsProperties(KEY))
                .issue(key, "2025-06-18", McpClientSession.relayedCapabilities(declared)).orElseThrow();
        var state = new McpSessionIds(new SecretsProperties(KEY)).state(id, key).orElseThrow();
        assertThat(state.protocolVersion()).isEqualTo("2025-06-18");
        assertThat(state.capabilities().propertyNames()).containsExactlyInAnyOrder("elicitation", "sampling", "roots");
        assertThat(state.capabilities().at("/roots/listChanged").booleanValue()).isTrue();
        // a client that declared nothing: nothing is declared upstream for it
        String plain = new McpSessionIds(new SecretsProperties(KEY)).issue(key, "2025-06-18").orElseThrow();
        assertThat(new McpSessionIds(new SecretsProperties(KEY)).state(plain, key).orElseThrow().capabilities().isEmpty()).isTrue();
    }

    @Test
    void withoutASecretsKeyNoIdsAreIssuedAndNoneIsKnown() {
        McpSessionIds none = new McpSessionIds(new SecretsProperties(null));
        assertThat(none.issue(key, "2025-06-18")).isEmpty();
        assertThat(none.open("mcp1.x", key)).isEmpty();
    }
}
