package io.agentgateway.evidence;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The canonical bytes of an {@link Entry} (format {@value #FORMAT}), what its leaf hashes:
 *
 * <pre>
 *   entry  = str("agw-evidence-entry/v1") || str(kind) || u32(field count) || field*   (fields by name, in byte order)
 *   field  = str(name) || value
 *   value  = 0xFFFFFFFF (null) | str(text)
 *   str(s) = u32(byte length of UTF-8 s) || UTF-8 s          u32 = 4 bytes, big-endian
 * </pre>
 *
 * Every field a kind has is written, nulls included, so an entry's bytes name all of its fields; names are lower-case
 * {@code [a-z0-9_]}, so their byte order is their {@link String} order. Length prefixes make the encoding
 * unambiguous: no two entries share bytes, whatever their texts hold.
 */
public final class EntryEncoding {
    public static final String FORMAT = "agw-evidence-entry/v1";
    private static final byte[] FORMAT_BYTES = FORMAT.getBytes(StandardCharsets.UTF_8);
    private static final int NULL = 0xFFFFFFFF;
    /** Entries are a few hundred bytes; this bounds what a decoder accepts from a file. */
    public static final int MAX_BYTES = 1 << 20;

    private EntryEncoding() {}

    public static byte[] encode(Entry entry) {
        byte[] kind = utf8(entry.kind());
        int count = entry.fields().size();
        byte[][] names = new byte[count][];
        byte[][] values = new byte[count][];
        int size = 4 + FORMAT_BYTES.length + 4 + kind.length + 4;
        int i = 0;
        for (Map.Entry<String, String> field : entry.fields().entrySet()) {
            names[i] = nameBytes(field.getKey());
            values[i] = field.getValue() == null ? null : utf8(field.getValue());
            size += 4 + names[i].length + 4 + (values[i] == null ? 0 : values[i].length);
            i++;
        }
        byte[] out = new byte[size];
        int at = putString(out, 0, FORMAT_BYTES);
        at = putString(out, at, kind);
        at = putInt(out, at, count);
        for (int f = 0; f < count; f++) {
            at = putString(out, at, names[f]);
            at = values[f] == null ? putInt(out, at, NULL) : putString(out, at, values[f]);
        }
        return out;
    }

    /**
     * Encodes an entry whose field names (ascending, each valid) and values come as two arrays: the same bytes as
     * {@link #encode(Entry)} of those fields, without building a map (the decision stream seals an entry per decision).
     */
    public static byte[] encode(String kind, String[] sortedNames, String[] values) {
        if (sortedNames.length != values.length) {
            throw new IllegalArgumentException("as many values as names");
        }
        byte[] kindBytes = utf8(kind);
        byte[][] names = new byte[sortedNames.length][];
        byte[][] valueBytes = new byte[values.length][];
        int size = 4 + FORMAT_BYTES.length + 4 + kindBytes.length + 4;
        for (int i = 0; i < sortedNames.length; i++) {
            if (i > 0 && sortedNames[i - 1].compareTo(sortedNames[i]) >= 0) {
                throw new IllegalArgumentException("field names must be given in ascending order");
            }
            names[i] = nameBytes(sortedNames[i]);
            valueBytes[i] = values[i] == null ? null : utf8(values[i]);
            size += 4 + names[i].length + 4 + (valueBytes[i] == null ? 0 : valueBytes[i].length);
        }
        byte[] out = new byte[size];
        int at = putString(out, 0, FORMAT_BYTES);
        at = putString(out, at, kindBytes);
        at = putInt(out, at, names.length);
        for (int f = 0; f < names.length; f++) {
            at = putString(out, at, names[f]);
            at = valueBytes[f] == null ? putInt(out, at, NULL) : putString(out, at, valueBytes[f]);
        }
        return out;
    }

    /** A field name's bytes, checked once: the few names of the format are met on every entry. */
    private static byte[] nameBytes(String name) {
        byte[] known = NAMES.get(name);
        if (known != null) {
            return known;
        }
        if (!isName(name)) {
            throw new IllegalArgumentException("field name '" + name + "' is not [a-z0-9_]{1,64}");
        }
        byte[] bytes = utf8(name);
        if (NAMES.size() < 4096) {
            NAMES.put(name, bytes);
        }
        return bytes;
    }

    private static boolean isName(String name) {
        if (name == null || name.isEmpty() || name.length() > 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private static final ConcurrentHashMap<String, byte[]> NAMES = new ConcurrentHashMap<>();

    private static int putString(byte[] out, int at, byte[] utf8) {
        at = putInt(out, at, utf8.length);
        System.arraycopy(utf8, 0, out, at, utf8.length);
        return at + utf8.length;
    }

    private static int putInt(byte[] out, int at, int value) {
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
        return at + 4;
    }

    /** The entry {@link #encode} wrote; {@link IllegalArgumentException} for any other bytes (a non-canonical order included). */
    public static Entry decode(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("an entry of " + bytes.length + " bytes is over the limit");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            String format = getString(in);
            if (!FORMAT.equals(format)) {
                throw new IllegalArgumentException("not an entry of format " + FORMAT);
            }
            String kind = getString(in);
            int count = in.getInt();
            if (count < 0 || count > 4096) {
                throw new IllegalArgumentException("an entry with " + count + " fields");
            }
            TreeMap<String, String> fields = new TreeMap<>();
            String previous = null;
            for (int f = 0; f < count; f++) {
                String name = getString(in);
                if (!isName(name) || (previous != null && previous.compareTo(name) >= 0)) {
                    throw new IllegalArgumentException("field names out of order or malformed");
                }
                previous = name;
                fields.put(name, getString(in));
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("bytes after the last field");
            }
            if (kind == null) {
                throw new IllegalArgumentException("an entry without a kind");
            }
            return Entry.owning(kind, fields);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("the entry ends early");
        }
    }

    private static String getString(ByteBuffer in) {
        int length = in.getInt();
        if (length == NULL) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a length past the end of the entry");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
