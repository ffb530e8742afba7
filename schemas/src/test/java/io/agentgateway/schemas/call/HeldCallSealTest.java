package io.agentgateway.schemas.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SecretBox;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeldCallSealTest {
    private static final SecretBox BOX = SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32]));
    private static final HeldCallSeal SEAL = new HeldCallSeal(BOX);
    private static final HeldHttpRequest REQUEST = new HeldHttpRequest("POST", "/repos/acme/api/issues", "x=1",
            Map.of("content-type", List.of("application/json")),
            Base64.getEncoder().encodeToString("{\"title\":\"secret token abc\"}".getBytes(StandardCharsets.UTF_8)));

    @Test
    void opensWhatItSealedWhenToolActionAndDigestMatch() {
        SealedHeldCall sealed = SEAL.seal(Tool.CODE_HOST, "issues.create", REQUEST);

        assertThat(sealed.kind()).isEqualTo(HeldCallKind.HTTP_REQUEST);
        assertThat(sealed.sealed()).startsWith("v1.").doesNotContain("secret");
        assertThat(sealed.digest()).isEqualTo(HeldCallSeal.digest(Tool.CODE_HOST, "issues.create", REQUEST)).hasSize(64);
        assertThat(SEAL.open(sealed, Tool.CODE_HOST, "issues.create", sealed.digest())).isEqualTo(REQUEST);
        assertThat(new String(((HeldHttpRequest) SEAL.open(sealed, Tool.CODE_HOST, "issues.create", sealed.digest())).body(),
                StandardCharsets.UTF_8)).contains("secret token abc");
    }

    @Test
    void anMcpCallRoundTripsToo() {
        HeldMcpToolCall call = new HeldMcpToolCall("delete_repository", GatewayJson.MAPPER.readTree("{\"repo\":\"a/b\"}"));
        SealedHeldCall sealed = SEAL.seal(Tool.MCP, "delete_repository", call);
        assertThat(sealed.kind()).isEqualTo(HeldCallKind.MCP_TOOL_CALL);
        assertThat(SEAL.open(sealed, Tool.MCP, "delete_repository", sealed.digest())).isEqualTo(call);
    }

    @Test
    void refusesACallBoundToAnotherDigestToolOrAction() {
        SealedHeldCall sealed = SEAL.seal(Tool.CODE_HOST, "issues.create", REQUEST);
        SealedHeldCall other = SEAL.seal(Tool.CODE_HOST, "issues.create",
                new HeldHttpRequest("DELETE", "/repos/acme/api", null, Map.of(), null));

        assertThatThrownBy(() -> SEAL.open(sealed, Tool.CODE_HOST, "issues.create", other.digest()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("digest");
        // the sealed text of another approval swapped in under this approval's digest
        assertThatThrownBy(() -> SEAL.open(other, Tool.CODE_HOST, "issues.create", sealed.digest()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("digest");
        assertThatThrownBy(() -> SEAL.open(sealed, Tool.INTERNAL_API, "issues.create", sealed.digest()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SEAL.open(sealed, Tool.CODE_HOST, "issues.update", sealed.digest()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SEAL.open(sealed, Tool.CODE_HOST, "issues.create", null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAKindThatDoesNotMatchAndTextSealedWithAnotherKey() {
        SealedHeldCall sealed = SEAL.seal(Tool.CODE_HOST, "issues.create", REQUEST);
        assertThatThrownBy(() -> SEAL.open(new SealedHeldCall(HeldCallKind.MCP_TOOL_CALL, sealed.sealed(), sealed.digest()),
                Tool.CODE_HOST, "issues.create", sealed.digest()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");

        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        HeldCallSeal otherSeal = new HeldCallSeal(SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(otherKey)));
        assertThatThrownBy(() -> otherSeal.open(sealed, Tool.CODE_HOST, "issues.create", sealed.digest()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void headerOrderDoesNotChangeTheDigest() {
        HeldHttpRequest a = new HeldHttpRequest("GET", "/x", null,
                Map.of("a", List.of("1"), "b", List.of("2")), null);
        HeldHttpRequest b = new HeldHttpRequest("GET", "/x", null,
                new java.util.TreeMap<>(Map.of("b", List.of("2"), "a", List.of("1"))).descendingMap(), null);
        assertThat(HeldCallSeal.digest(Tool.DOCS, "read", a)).isEqualTo(HeldCallSeal.digest(Tool.DOCS, "read", b));
    }
}
