package io.agentgateway.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Inclusion and consistency proofs: every probe of transparency-dev/merkle's {@code testdata} (copied under
 * {@code src/test/resources/transparency-dev-merkle}) verified or refused as it says, the happy paths made again from
 * the reference tree's nodes byte for byte, and every proof of trees up to 70 leaves made and checked both ways.
 */
class MerkleProofsTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private final MerkleHasher hasher = new MerkleHasher();

    @Test
    void inclusionProbesAreVerifiedOrRefusedAsTheReferenceSays() {
        List<JsonNode> probes = probes("inclusion");
        assertThat(probes).hasSizeGreaterThan(80);
        int refused = 0;
        for (JsonNode probe : probes) {
            boolean verified = MerkleProofs.verifyInclusion(u64(probe.get("leafIdx")), u64(probe.get("treeSize")),
                    bytes(probe.get("leafHash")), hashes(probe.get("proof")), bytes(probe.get("root")), hasher);
            assertThat(verified).as(probe.get("desc").asString() + " " + probe).isEqualTo(!probe.get("wantErr").asBoolean());
            refused += verified ? 0 : 1;
        }
        assertThat(refused).isGreaterThan(50);
    }

    @Test
    void consistencyProbesAreVerifiedOrRefusedAsTheReferenceSays() {
        List<JsonNode> probes = probes("consistency");
        assertThat(probes).hasSizeGreaterThan(60);
        for (JsonNode probe : probes) {
            boolean verified = MerkleProofs.verifyConsistency(u64(probe.get("size1")), u64(probe.get("size2")),
                    hashes(probe.get("proof")), bytes(probe.get("root1")), bytes(probe.get("root2")), hasher);
            assertThat(verified).as(probe.get("desc").asString() + " " + probe).isEqualTo(!probe.get("wantErr").asBoolean());
        }
    }

    @Test
    void makesTheReferenceProofsFromStoredNodes() {
        Map<NodeId, byte[]> nodes = ReferenceTree.nodes();
        MerkleProofs.NodeSource source = wanted -> {
            Map<NodeId, byte[]> found = new HashMap<>();
            wanted.forEach(id -> found.put(id, nodes.get(id)));
            return found;
        };
        int compared = 0;
        for (JsonNode probe : probes("inclusion")) {
            if (probe.get("wantErr").asBoolean() || !probe.get("desc").asString().equals("happy path")
                    || probe.get("treeSize").asLong() > 8) {
                continue;
            }
            long index = probe.get("leafIdx").asLong();
            long size = probe.get("treeSize").asLong();
            if (!java.util.Arrays.equals(bytes(probe.get("leafHash")), nodes.get(new NodeId(0, index)))) {
                continue;
            }
            assertThat(MerkleProofs.inclusionProof(index, size, source, hasher))
                    .as("inclusion of %d in %d", index, size).containsExactlyElementsOf(hashes(probe.get("proof")));
            compared++;
        }
        for (JsonNode probe : probes("consistency")) {
            if (probe.get("wantErr").asBoolean() || !probe.get("desc").asString().equals("happy path")
                    || probe.get("size2").asLong() > 8 || probe.get("size1").asLong() == 0) {
                continue;
            }
            long first = probe.get("size1").asLong();
            long second = probe.get("size2").asLong();
            assertThat(MerkleProofs.consistencyProof(first, second, source, hasher))
                    .as("consistency of %d and %d", first, second).containsExactlyElementsOf(hashes(probe.get("proof")));
            assertThat(MerkleProofs.root(second, source, hasher)).isEqualTo(ReferenceTree.ROOTS.get((int) second));
            compared++;
        }
        assertThat(compared).isGreaterThanOrEqualTo(6);
    }

    @Test
    void everyProofOfSmallTreesVerifiesAndNoOtherLeafOrRootDoes() {
        Random random = new Random(11);
        List<byte[]> leaves = new ArrayList<>();
        Map<NodeId, byte[]> stored = new HashMap<>();
        CompactRange range = CompactRange.empty();
        List<byte[]> roots = new ArrayList<>();
        roots.add(MerkleHasher.emptyRoot());
        MerkleProofs.NodeSource source = wanted -> {
            Map<NodeId, byte[]> found = new HashMap<>();
            wanted.forEach(id -> found.put(id, stored.get(id)));
            return found;
        };
        for (int i = 0; i < 70; i++) {
            byte[] input = new byte[16];
            random.nextBytes(input);
            byte[] leaf = hasher.leaf(input);
            leaves.add(leaf);
            stored.put(new NodeId(0, i), leaf);
            List<byte[]> completed = range.append(leaf, hasher);
            List<NodeId> ids = NodeId.completedBy(i);
            for (int c = 0; c < ids.size(); c++) {
                stored.put(ids.get(c), completed.get(c));
            }
            roots.add(range.root(hasher));
        }
        for (int size = 1; size <= 70; size++) {
            assertThat(MerkleProofs.root(size, source, hasher)).isEqualTo(roots.get(size));
            for (int index = 0; index < size; index++) {
                List<byte[]> proof = MerkleProofs.inclusionProof(index, size, source, hasher);
                assertThat(proof).hasSameSizeAs(MerkleProofs.inclusionPath(index, size));
                assertThat(MerkleProofs.verifyInclusion(index, size, leaves.get(index), proof, roots.get(size), hasher)).isTrue();
                int other = (index + 1) % size;
                if (other != index) {
                    assertThat(MerkleProofs.verifyInclusion(index, size, leaves.get(other), proof, roots.get(size), hasher)).isFalse();
                    assertThat(MerkleProofs.verifyInclusion(other, size, leaves.get(index), proof, roots.get(size), hasher)).isFalse();
                }
                assertThat(MerkleProofs.verifyInclusion(index, size, leaves.get(index), proof, roots.get(size - 1), hasher)).isFalse();
            }
            for (int first = 1; first <= size; first++) {
                List<byte[]> proof = MerkleProofs.consistencyProof(first, size, source, hasher);
                assertThat(MerkleProofs.verifyConsistency(first, size, proof, roots.get(first), roots.get(size), hasher))
                        .as("consistency %d to %d", first, size).isTrue();
                if (first < size) {
                    assertThat(MerkleProofs.verifyConsistency(first, size, proof, roots.get(first - 1), roots.get(size), hasher)).isFalse();
                    assertThat(MerkleProofs.verifyConsistency(first, size, proof, roots.get(first), roots.get(size - 1), hasher)).isFalse();
                }
            }
        }
    }

    @Test
    void aProofNeedsAtMostTwiceTheTreeHeightInStoredNodes() {
        for (long size : new long[] {1_000_000L, 1_048_575L, 1_048_577L, (1L << 40) + 12345}) {
            for (long index : new long[] {0, size / 2, size - 1}) {
                assertThat(MerkleProofs.inclusionNodes(index, size).size())
                        .isLessThanOrEqualTo(2 * (64 - Long.numberOfLeadingZeros(size)));
            }
            assertThat(MerkleProofs.consistencyNodes(size / 3, size).size())
                    .isLessThanOrEqualTo(2 * (64 - Long.numberOfLeadingZeros(size)));
        }
    }

    private static List<JsonNode> probes(String kind) {
        Path root = Path.of("src/test/resources/transparency-dev-merkle", kind);
        try (Stream<Path> files = Files.walk(root)) {
            List<JsonNode> probes = new ArrayList<>();
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                probes.add(JSON.readTree(Files.readString(file)));
            }
            return probes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The probes' sizes are Go uint64s: one beyond Java's long wraps to a negative, which no proof accepts. */
    private static long u64(JsonNode number) {
        return number.bigIntegerValue().longValue();
    }

    private static byte[] bytes(JsonNode base64) {
        return base64 == null || base64.isNull() ? null : Base64.getDecoder().decode(base64.asString());
    }

    private static List<byte[]> hashes(JsonNode array) {
        List<byte[]> hashes = new ArrayList<>();
        if (array != null && !array.isNull()) {
            array.forEach(node -> hashes.add(bytes(node)));
        }
        return hashes;
    }
}
