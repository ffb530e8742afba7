package io.agentgateway.decisionstream.topology;

import java.time.Instant;

/**
 * Keys of the per-entry stores. An entry is keyed by its workspace and its own id, joined by a newline
 * (which occurs in neither a workspace id nor an approval id, key hash or key id), so one workspace's
 * entries are never confused with another's.
 *
 * <p>The expiry index is keyed by time first: {@code <16-digit epoch millis> \n <kind> \n <workspace> \n <id>},
 * zero-padded so that the stores' byte order (RocksDB sorts the UTF-8 keys) is time order, and a sweep
 * finds everything due with one range read from the start of the index up to stream time.
 */
final class EntryKeys {
    static final char APPROVAL = 'a';
    static final char API_KEY = 'k';
    private static final int TIME_DIGITS = 16;
    private static final char SEPARATOR = '\n';
    /** Lower than every key of the index. */
    static final String INDEX_START = "0".repeat(TIME_DIGITS);

    private EntryKeys() {}

    static String entry(String workspaceId, String id) {
        return workspaceId + SEPARATOR + id;
    }

    static String expiry(long epochMillis, char kind, String workspaceId, String id) {
        return time(epochMillis) + SEPARATOR + kind + SEPARATOR + workspaceId + SEPARATOR + id;
    }

    static String expiry(Instant at, char kind, String workspaceId, String id) {
        return expiry(at.toEpochMilli(), kind, workspaceId, id);
    }

    /** Greater than every index key of an instant up to {@code epochMillis}, smaller than every later one. */
    static String expiryUpTo(long epochMillis) {
        // after the separator ('\n', 0x0A) in byte order, before any digit
        return time(epochMillis) + (char) (SEPARATOR + 1);
    }

    /** An expiry index key, taken apart. */
    record Expiry(long epochMillis, char kind, String workspaceId, String id) {}

    static Expiry parseExpiry(String key) {
        int kindAt = TIME_DIGITS + 1;
        int workspaceAt = kindAt + 2;
        int idAt = key.indexOf(SEPARATOR, workspaceAt);
        if (key.length() < workspaceAt || key.charAt(TIME_DIGITS) != SEPARATOR || idAt < 0) {
            throw new IllegalArgumentException("not an expiry index key");
        }
        return new Expiry(Long.parseLong(key, 0, TIME_DIGITS, 10), key.charAt(kindAt), key.substring(workspaceAt, idAt),
                key.substring(idAt + 1));
    }

    private static String time(long epochMillis) {
        String digits = Long.toString(Math.max(0, epochMillis));
        return "0".repeat(TIME_DIGITS - digits.length()) + digits;
    }
}
