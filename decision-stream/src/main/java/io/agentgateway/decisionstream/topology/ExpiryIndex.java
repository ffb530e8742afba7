package io.agentgateway.decisionstream.topology;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code expiry-index} store: one key per approval and per ended API key, at the instant the sweep
 * must look at it ({@link EntryKeys#expiry}), with an empty value. The time of its earliest key is kept in
 * memory, so asking "is anything due?" costs nothing until something is.
 */
final class ExpiryIndex {
    private static final byte[] PRESENT = new byte[0];
    private static final long UNKNOWN = Long.MIN_VALUE;

    private final KeyValueStore<String, byte[]> store;
    /** Epoch millis of the earliest key, {@link Long#MAX_VALUE} for none, {@link #UNKNOWN} before the first look. */
    private long earliestMillis = UNKNOWN;

    ExpiryIndex(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    void add(long epochMillis, char kind, String workspaceId, String id) {
        store.put(EntryKeys.expiry(epochMillis, kind, workspaceId, id), PRESENT);
        if (earliestMillis != UNKNOWN) {
            earliestMillis = Math.min(earliestMillis, epochMillis);
        }
    }

    void remove(long epochMillis, char kind, String workspaceId, String id) {
        store.delete(EntryKeys.expiry(epochMillis, kind, workspaceId, id));
    }

    /**
     * Whether a key is due at stream time {@code nowMillis}. Everything indexed is due strictly after its
     * instant (an approval is still in time at its {@code expiresAt}), so a key at millisecond {@code t}
     * is due from {@code t + 1}.
     */
    boolean anyDue(long nowMillis) {
        if (earliestMillis == UNKNOWN) {
            earliestMillis = firstMillis();
        }
        return earliestMillis < nowMillis;
    }

    /** Every key due at stream time {@code nowMillis}, in time order. */
    List<EntryKeys.Expiry> due(long nowMillis) {
        List<EntryKeys.Expiry> due = new ArrayList<>();
        if (nowMillis <= 0) {
            return due;
        }
        try (KeyValueIterator<String, byte[]> range = store.range(EntryKeys.INDEX_START, EntryKeys.expiryUpTo(nowMillis - 1))) {
            while (range.hasNext()) {
                KeyValue<String, byte[]> next = range.next();
                due.add(EntryKeys.parseExpiry(next.key));
            }
        }
        return due;
    }

    /** After a sweep: the earliest key left is looked up again at the next {@link #anyDue}. */
    void forgetEarliest() {
        earliestMillis = UNKNOWN;
    }

    private long firstMillis() {
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            return all.hasNext() ? EntryKeys.parseExpiry(all.next().key).epochMillis() : Long.MAX_VALUE;
        }
    }
}
