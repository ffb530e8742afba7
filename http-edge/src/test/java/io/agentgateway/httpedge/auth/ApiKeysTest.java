package io.agentgateway.httpedge.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void aKeyHasThePrefixTheWorkspaceAndA256BitSecret() {
        UUID workspace = UUID.randomUUID();
        String key = ApiKeys.generate(workspace);

        assertThat(key).hasSize(70).startsWith("agk_").matches("agk_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}");
        assertThat(key.charAt(26)).isEqualTo('_');
        assertThat(ApiKeys.parseWorkspace(key)).contains(workspace);
    }

    @Test
    void twoKeysOfOneWorkspaceDiffer() {
        UUID workspace = UUID.randomUUID();
        assertThat(ApiKeys.generate(workspace)).isNotEqualTo(ApiKeys.generate(workspace));
    }

    @Test
    void theHashIsTheLowerCaseHexSha256OfTheWholeKey() throws Exception {
        String key = ApiKeys.generate(UUID.randomUUID());
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));

        assertThat(ApiKeys.hash(key)).isEqualTo(expected).hasSize(64).matches("[0-9a-f]{64}");
    }

    @Test
    void anythingButTheExactShapeYieldsNoWorkspace() {
        String key = ApiKeys.generate(UUID.randomUUID());

        assertThat(ApiKeys.parseWorkspace(null)).isEmpty();
        assertThat(ApiKeys.parseWorkspace("")).isEmpty();
        assertThat(ApiKeys.parseWorkspace(key.substring(0, 69))).isEmpty();
        assertThat(ApiKeys.parseWorkspace(key + "A")).isEmpty();
        assertThat(ApiKeys.parseWorkspace("agx_" + key.substring(4))).isEmpty();
        assertThat(ApiKeys.parseWorkspace(key.substring(0, 26) + "." + key.substring(27))).isEmpty();
        assertThat(ApiKeys.parseWorkspace(key.substring(0, 10) + "+" + key.substring(11))).isEmpty();
        assertThat(ApiKeys.parseWorkspace(key.substring(0, 30) + "=" + key.substring(31))).isEmpty();
    }

    @Test
    void aNonCanonicalEncodingOfTheWorkspaceIsRefused() {
        String key = ApiKeys.generate(UUID.fromString("00000000-0000-0000-0000-000000000000"));
        // 22 base64 chars carry 132 bits: the last char of 16 bytes must leave its 4 low bits zero
        String tampered = key.substring(0, 25) + "B" + key.substring(26);

        assertThat(ApiKeys.parseWorkspace(key)).isPresent();
        assertThat(ApiKeys.parseWorkspace(tampered)).isEmpty();
    }
}
