package io.agentgateway.evidence;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One entry of a workspace's log: its kind ({@link EntryKinds}) and its fields, every value a text or null
 * ({@link EntryValues} says how each kind of value is written). Every entry has {@value EntryFields#SEQUENCE} (its
 * position, from 0) and {@value EntryFields#WORKSPACE_ID}. Its leaf in the Merkle tree is
 * {@code SHA-256(0x00 || EntryEncoding.encode(entry))}.
 */
public record Entry(String kind, SortedMap<String, String> fields) {

    public Entry {
        Objects.requireNonNull(kind, "kind");
        // a map this class made itself (owning) is kept; any other is copied, so nobody can change an entry
        if (fields.getClass() != OWNED) {
            fields = Collections.unmodifiableSortedMap(new TreeMap<>(fields));
        }
    }

    private static final Class<?> OWNED = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();

    public static Entry of(String kind, Map<String, String> fields) {
        return owning(kind, new TreeMap<>(fields));
    }

    /** An entry of a map nobody else holds (the decoder's, the export reader's): kept without a copy. */
    static Entry owning(String kind, TreeMap<String, String> fields) {
        return new Entry(kind, Collections.unmodifiableSortedMap(fields));
    }

    public String field(String name) {
        return fields.get(name);
    }

    /** The entry's sequence number, or -1 when it has none that reads as one. */
    public long sequence() {
        String text = fields.get(EntryFields.SEQUENCE);
        if (text == null) {
            return -1;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public String workspaceId() {
        return fields.get(EntryFields.WORKSPACE_ID);
    }

    public byte[] encode() {
        return EntryEncoding.encode(this);
    }

    public byte[] leafHash(MerkleHasher hasher) {
        return hasher.leaf(encode());
    }
}
