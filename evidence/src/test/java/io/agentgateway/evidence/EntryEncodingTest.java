package io.agentgateway.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EntryEncodingTest {

    @Test
    void writesTheDocumentedBytes() {
        Map<String, String> fields = new HashMap<>();
        fields.put("sequence", "0");
        fields.put("b", null);
        fields.put("a", "é");
        byte[] bytes = Entry.of("k", fields).encode();
        // str("agw-evidence-entry/v1") str("k") u32(3) str("a") str("é") str("b") null str("sequence") str("0")
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(
                "00000015" + HexFormat.of().formatHex("agw-evidence-entry/v1".getBytes())
                        + "00000001" + "6b"
                        + "00000003"
                        + "00000001" + "61" + "00000002" + "c3a9"
                        + "00000001" + "62" + "ffffffff"
                        + "00000008" + HexFormat.of().formatHex("sequence".getBytes()) + "00000001" + "30");
        assertThat(EntryEncoding.decode(bytes)).isEqualTo(Entry.of("k", fields));
        // the leaf of these bytes, as an auditor's reimplementation would compute it
        assertThat(Hashes.hex(new MerkleHasher().leaf(bytes)))
                .isEqualTo(Hashes.hex(sha256(concat(new byte[] {0}, bytes))));
    }

    @Test
    void lengthPrefixesKeepEntriesApart() {
        byte[] one = Entry.of("k", Map.of("a", "bc")).encode();
        byte[] two = Entry.of("k", Map.of("ab", "c")).encode();
        assertThat(one).isNotEqualTo(two);
        Map<String, String> withNull = new HashMap<>();
        withNull.put("a", null);
        assertThat(Entry.of("k", withNull).encode()).isNotEqualTo(Entry.of("k", Map.of("a", "")).encode());
    }

    @Test
    void refusesWhatItDoesNotWrite() {
        assertThatThrownBy(() -> Entry.of("k", Map.of("Bad-Name", "x")).encode()).isInstanceOf(IllegalArgumentException.class);
        byte[] bytes = Entry.of("k", Map.of("a", "1", "b", "2")).encode();
        assertThatThrownBy(() -> EntryEncoding.decode(java.util.Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EntryEncoding.decode(java.util.Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesAreWrittenAsPostgresqlGivesThemBack() {
        assertThat(EntryValues.instant(Instant.parse("2026-03-01T12:00:00Z"))).isEqualTo("2026-03-01T12:00:00.000000Z");
        assertThat(EntryValues.instant(Instant.parse("2026-03-01T12:00:00.123456789Z"))).isEqualTo("2026-03-01T12:00:00.123457Z");
        assertThat(EntryValues.instant(Instant.parse("2026-03-01T12:00:00.123456499Z"))).isEqualTo("2026-03-01T12:00:00.123456Z");
        assertThat(EntryValues.text("a\u0000b")).isEqualTo("a\uFFFDb");
        assertThat(EntryValues.id("8D1C5B4E-0000-4000-8000-000000000001")).isEqualTo("8d1c5b4e-0000-4000-8000-000000000001");
        assertThat(EntryValues.bool(true)).isEqualTo("true");
    }

    private static byte[] sha256(byte[] bytes) {
        return new MerkleHasher().sha256(bytes);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
