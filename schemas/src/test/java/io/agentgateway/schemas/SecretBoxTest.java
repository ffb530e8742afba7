package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretBoxTest {
    private static final String KEY = base64Key(1);
    private static final String OTHER_KEY = base64Key(2);
    private static final String URL = "https://chat.example/hooks/T000/B000/secret-token";

    private final SecretBox box = SecretBox.fromBase64Key(KEY);

    @Test
    void opensWhatItSealed() {
        String sealed = box.seal(URL);
        assertThat(sealed).startsWith("v1.").doesNotContain("chat.example");
        assertThat(box.open(sealed)).isEqualTo(URL);
        // another instance with the same key (another service) opens it too
        assertThat(SecretBox.fromBase64Key(KEY).open(sealed)).isEqualTo(URL);
    }

    @Test
    void sealsUnicodeAndEmptyText() {
        assertThat(box.open(box.seal(""))).isEmpty();
        assertThat(box.open(box.seal("clé • 秘密 • 🔑"))).isEqualTo("clé • 秘密 • 🔑");
    }

    @Test
    void twoSealsOfTheSameTextDiffer() {
        assertThat(box.seal(URL)).isNotEqualTo(box.seal(URL));
    }

    @Test
    void theSealedFormFitsTheContractSchema() {
        assertThat(box.seal(URL)).matches("^v1\\.[A-Za-z0-9_-]+$");
    }

    @Test
    void rejectsATamperedCiphertext() {
        String sealed = box.seal(URL);
        byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(3));
        raw[raw.length - 1] ^= 0x01;
        String tampered = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);

        assertThatThrownBy(() -> box.open(tampered)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsATamperedIv() {
        String sealed = box.seal(URL);
        byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(3));
        raw[0] ^= 0x01;
        String tampered = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);

        assertThatThrownBy(() -> box.open(tampered)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAWrongKey() {
        String sealed = box.seal(URL);
        assertThatThrownBy(() -> SecretBox.fromBase64Key(OTHER_KEY).open(sealed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sealed secret cannot be opened with this key");
    }

    @Test
    void rejectsWhatWasNeverSealed() {
        assertThatThrownBy(() -> box.open((String) null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.open(URL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.open("v1.")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.open("v1.AAAA")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.open("v1.not base64!")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAMissingOrShortKey() {
        assertThatThrownBy(() -> SecretBox.fromBase64Key(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SecretBox.fromBase64Key(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(new byte[16])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 bytes");
    }

    @Test
    void sealedAndOpenedSecretsNeverPrintTheirValues() {
        SealedSecret sealed = box.sealSecret(URL);
        assertThat(sealed.hasSealedForm()).isTrue();
        assertThat(sealed.toString()).isEqualTo("SealedSecret[redacted]").doesNotContain(sealed.value());

        PlainSecret opened = box.openSecret(sealed);
        assertThat(opened.reveal()).isEqualTo(URL);
        assertThat(opened.toString()).isEqualTo("PlainSecret[redacted]");
        assertThat(String.valueOf(new Holder(opened, sealed))).doesNotContain(URL).doesNotContain(sealed.value());
    }

    @Test
    void anOpenedSecretNeverReachesJson() {
        PlainSecret opened = PlainSecret.of("token-that-must-stay-inside");
        String json = GatewayJson.MAPPER.writeValueAsString(new Holder(opened, box.sealSecret("x")));
        assertThat(json).doesNotContain("token-that-must-stay-inside").doesNotContain("opened");
    }

    @Test
    void aSealedSecretTravelsAsItsSealedString() {
        SealedSecret sealed = box.sealSecret(URL);
        assertThat(GatewayJson.MAPPER.writeValueAsString(sealed)).isEqualTo("\"" + sealed.value() + "\"");
        assertThat(GatewayJson.MAPPER.readValue("\"" + sealed.value() + "\"", SealedSecret.class)).isEqualTo(sealed);
    }

    @Test
    void onlySecretBoxOutputHasTheSealedForm() {
        assertThat(SealedSecret.of("ghp_plainToken").hasSealedForm()).isFalse();
        assertThat(SealedSecret.of("v1.").hasSealedForm()).isFalse();
        assertThat(SealedSecret.of("v1.abc def").hasSealedForm()).isFalse();
        assertThatThrownBy(() -> box.openSecret(SealedSecret.of("ghp_plainToken"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.openSecret(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void plainSecretsCompareWithoutShortCuts() {
        PlainSecret secret = PlainSecret.of("s3cret");
        assertThat(secret.matches("s3cret")).isTrue();
        assertThat(secret.matches("s3creT")).isFalse();
        assertThat(secret.matches(null)).isFalse();
    }

    /** A record as any caller would write one, to see what its generated toString and JSON show. */
    record Holder(PlainSecret opened, SealedSecret sealed) {}

    @Test
    void toStringNeverShowsTheKey() {
        assertThat(box.toString()).doesNotContain(KEY).isEqualTo("SecretBox[AES-256-GCM]");
    }

    private static String base64Key(int seed) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (seed * 31 + i);
        }
        return Base64.getEncoder().encodeToString(key);
    }
}
