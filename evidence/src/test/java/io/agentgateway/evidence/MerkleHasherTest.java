package io.agentgateway.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** RFC 6962/9162 hashing against transparency-dev/merkle's vectors ({@code rfc6962_test.go}, {@code testonly}). */
class MerkleHasherTest {
    private final MerkleHasher hasher = new MerkleHasher();

    @Test
    void hashesAsTheReferenceDoes() {
        assertThat(hex(MerkleHasher.emptyRoot())).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(hex(hasher.leaf(new byte[0]))).isEqualTo("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
        assertThat(hex(hasher.leaf("L123456".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56");
        assertThat(hex(hasher.node("N123".getBytes(StandardCharsets.US_ASCII), "N456".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb");
    }

    @Test
    void aLeafIsNeverANode() {
        byte[] left = hasher.leaf("Hello".getBytes(StandardCharsets.US_ASCII));
        byte[] right = hasher.leaf("World".getBytes(StandardCharsets.US_ASCII));
        byte[] node = hasher.node(left, right);
        byte[] preimage = new byte[64];
        System.arraycopy(left, 0, preimage, 0, 32);
        System.arraycopy(right, 0, preimage, 32, 32);
        assertThat(hasher.leaf(preimage)).isNotEqualTo(node);
        assertThat(hasher.node(right, left)).isNotEqualTo(node);
    }

    @Test
    void theCompactRangeGivesEveryReferenceRootAndNode() {
        CompactRange range = CompactRange.empty();
        assertThat(range.root(hasher)).isEqualTo(ReferenceTree.ROOTS.get(0));
        for (int i = 0; i < ReferenceTree.LEAF_INPUTS.size(); i++) {
            byte[] leaf = hasher.leaf(ReferenceTree.LEAF_INPUTS.get(i));
            assertThat(leaf).isEqualTo(ReferenceTree.NODE_HASHES.get(0).get(i));
            List<byte[]> completed = range.append(leaf, hasher);
            List<NodeId> ids = NodeId.completedBy(i);
            assertThat(completed).hasSameSizeAs(ids);
            for (int c = 0; c < ids.size(); c++) {
                NodeId id = ids.get(c);
                assertThat(completed.get(c)).as("node %s", id).isEqualTo(ReferenceTree.NODE_HASHES.get(id.level()).get((int) id.index()));
            }
            assertThat(range.size()).isEqualTo(i + 1);
            assertThat(range.root(hasher)).as("root of size %d", i + 1).isEqualTo(ReferenceTree.ROOTS.get(i + 1));
            // the stored form reads back the same, and so do the perfect subtrees it is made of
            CompactRange decoded = CompactRange.decode(range.encode());
            assertThat(decoded.root(hasher)).isEqualTo(range.root(hasher));
            List<NodeId> parts = CompactRange.nodesOf(range.size());
            List<byte[]> fromNodes = new ArrayList<>();
            parts.forEach(id -> fromNodes.add(ReferenceTree.NODE_HASHES.get(id.level()).get((int) id.index())));
            assertThat(CompactRange.of(range.size(), fromNodes).root(hasher)).isEqualTo(range.root(hasher));
        }
    }

    @Test
    void theCompactRangeAgreesWithTheDefinitionOnLargerTrees() {
        Random random = new Random(7);
        List<byte[]> leaves = new ArrayList<>();
        CompactRange range = CompactRange.empty();
        for (int size = 1; size <= 300; size++) {
            byte[] input = new byte[random.nextInt(40)];
            random.nextBytes(input);
            byte[] leaf = hasher.leaf(input);
            leaves.add(leaf);
            range.append(leaf, hasher);
            assertThat(range.root(hasher)).as("size %d", size).isEqualTo(definitionRoot(leaves, 0, leaves.size()));
        }
    }

    @Test
    void refusesStoredFormsThatAreNotRanges() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CompactRange.decode(new byte[7]))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] sizeThreeOneHash = java.nio.ByteBuffer.allocate(8 + 32).putLong(3).array();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CompactRange.decode(sizeThreeOneHash))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** MTH of RFC 9162 2.1.1, literally. */
    private byte[] definitionRoot(List<byte[]> leaves, int start, int end) {
        int n = end - start;
        if (n == 1) {
            return leaves.get(start);
        }
        int k = Integer.highestOneBit(n - 1);
        return hasher.node(definitionRoot(leaves, start, start + k), definitionRoot(leaves, start + k, end));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
