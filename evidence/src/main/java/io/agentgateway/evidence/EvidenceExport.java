package io.agentgateway.evidence;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * The evidence export (format {@value #FORMAT}): JSON Lines, UTF-8, one object per line, in this order:
 *
 * <pre>
 * {"type":"header","format":"agw-evidence-export/v1","workspaceId":…,"origin":…,"treeSize":N,"complete":true|false,
 *  "from":…|null,"to":…|null,"pendingEntries":P,"exportedAt":…}
 * {"type":"key","vkey":"<name>+<key id>+<base64 key>"}                       one per public key, current and previous
 * {"type":"checkpoint","note":"<signed note>"}                               the checkpoints up to the head (size N)
 * {"type":"consistency","fromSize":M,"proof":["<base64>",…]}                 optional: from an earlier size to N
 * {"type":"entry","kind":…,"fields":{…},"leafHash":…,"payloadExcerpt":…,"payloadErased":…,"proof":[…]}   by sequence
 * {"type":"end","entries":E}                                                 the export is whole
 * </pre>
 *
 * A complete export holds every entry from 0 to N-1 (no proofs needed: the verifier recomputes the root); a partial
 * one (a time range) holds some, each with its inclusion proof against the head checkpoint. Entries sealed after the
 * head checkpoint are not exported ({@code pendingEntries} counts them): no signed root covers them yet.
 */
public final class EvidenceExport {
    public static final String FORMAT = "agw-evidence-export/v1";
    private static final JsonFactory JSON = JsonFactory.builder()
            .rootValueSeparator("\n")
            // a line is an entry of a few KiB at most; a note is bounded by SignedNote.MAX_BYTES
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(1 << 20).maxNestingDepth(8).build())
            .build();

    private EvidenceExport() {}

    /** The first line. */
    public record Header(String workspaceId, String origin, long treeSize, boolean complete, String from, String to,
                         long pendingEntries, String exportedAt) {}

    /** A proof that the tree of {@code fromSize} is a prefix of the head's. */
    public record Consistency(long fromSize, List<byte[]> proof) {}

    /** Any line, as read. */
    public sealed interface Line permits HeaderLine, KeyLine, CheckpointLine, ConsistencyLine, EntryLine, EndLine {}

    public record HeaderLine(Header header) implements Line {}

    public record KeyLine(String vkey) implements Line {}

    public record CheckpointLine(String note) implements Line {}

    public record ConsistencyLine(Consistency consistency) implements Line {}

    public record EntryLine(ExportedEntry entry) implements Line {}

    public record EndLine(long entries) implements Line {}

    /** Writes an export, line by line, in the order the format says. Not thread-safe; {@link #close} flushes. */
    public static final class Writer implements Closeable {
        private final JsonGenerator json;
        private long entries;

        public Writer(OutputStream out) {
            this.json = JSON.createGenerator(ObjectWriteContext.empty(), out);
        }

        public Writer header(Header header) {
            json.writeStartObject();
            json.writeStringProperty("type", "header");
            json.writeStringProperty("format", FORMAT);
            json.writeStringProperty("workspaceId", header.workspaceId());
            json.writeStringProperty("origin", header.origin());
            json.writeNumberProperty("treeSize", header.treeSize());
            json.writeBooleanProperty("complete", header.complete());
            json.writeStringProperty("from", header.from());
            json.writeStringProperty("to", header.to());
            json.writeNumberProperty("pendingEntries", header.pendingEntries());
            json.writeStringProperty("exportedAt", header.exportedAt());
            json.writeEndObject();
            return this;
        }

        public Writer key(String vkey) {
            json.writeStartObject();
            json.writeStringProperty("type", "key");
            json.writeStringProperty("vkey", vkey);
            json.writeEndObject();
            return this;
        }

        public Writer checkpoint(String note) {
            json.writeStartObject();
            json.writeStringProperty("type", "checkpoint");
            json.writeStringProperty("note", note);
            json.writeEndObject();
            return this;
        }

        public Writer consistency(Consistency consistency) {
            json.writeStartObject();
            json.writeStringProperty("type", "consistency");
            json.writeNumberProperty("fromSize", consistency.fromSize());
            writeHashes("proof", consistency.proof());
            json.writeEndObject();
            return this;
        }

        public Writer entry(ExportedEntry exported) {
            json.writeStartObject();
            json.writeStringProperty("type", "entry");
            json.writeStringProperty("kind", exported.entry().kind());
            json.writeName("fields");
            json.writeStartObject();
            for (Map.Entry<String, String> field : exported.entry().fields().entrySet()) {
                json.writeStringProperty(field.getKey(), field.getValue());
            }
            json.writeEndObject();
            if (exported.sealedLeafHash() != null) {
                json.writeStringProperty("leafHash", Hashes.base64(exported.sealedLeafHash()));
            }
            if (EntryKinds.isAuditRow(exported.entry().kind())) {
                json.writeStringProperty("payloadExcerpt", exported.payloadExcerpt());
                json.writeBooleanProperty("payloadErased", exported.payloadErased());
            }
            if (exported.proof() != null) {
                writeHashes("proof", exported.proof());
            }
            json.writeEndObject();
            entries++;
            return this;
        }

        /** The last line; the export is whole once it is written. */
        public Writer end() {
            json.writeStartObject();
            json.writeStringProperty("type", "end");
            json.writeNumberProperty("entries", entries);
            json.writeEndObject();
            json.writeRaw('\n');
            json.flush();
            return this;
        }

        public long entries() {
            return entries;
        }

        private void writeHashes(String name, List<byte[]> hashes) {
            json.writeArrayPropertyStart(name);
            for (byte[] hash : hashes) {
                json.writeString(Hashes.base64(hash));
            }
            json.writeEndArray();
        }

        @Override
        public void close() {
            json.close();
        }
    }

    /** Reads an export line by line; {@link MalformedExportException} for anything that is not one. */
    public static final class Reader implements Closeable {
        private final JsonParser json;
        private long line;

        public Reader(InputStream in) {
            this.json = JSON.createParser(ObjectReadContext.empty(), in);
        }

        /** The next line, or null at the end of the input. */
        public Line next() {
            try {
                JsonToken token = json.nextToken();
                if (token == null) {
                    return null;
                }
                line++;
                if (token != JsonToken.START_OBJECT) {
                    throw malformed("not a JSON object");
                }
                return readObject();
            } catch (JacksonException e) {
                throw new MalformedExportException("line " + (line == 0 ? 1 : line) + ": not JSON (" + e.getOriginalMessage() + ")");
            }
        }

        public long lineNumber() {
            return line;
        }

        private Line readObject() {
            String type = null;
            Map<String, String> strings = new HashMap<>();
            TreeMap<String, String> fields = null;
            List<byte[]> proof = null;
            Boolean complete = null;
            Boolean erased = null;
            for (String name = json.nextName(); name != null; name = json.nextName()) {
                JsonToken value = json.nextToken();
                switch (name) {
                    case "type" -> type = text(value, name);
                    case "fields" -> fields = readFields(value);
                    case "proof" -> proof = readHashes(value);
                    case "complete" -> complete = bool(value, name);
                    case "payloadErased" -> erased = bool(value, name);
                    case "treeSize", "pendingEntries", "fromSize", "entries" -> strings.put(name, number(value, name));
                    default -> {
                        if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                            json.skipChildren();
                        } else {
                            strings.put(name, value == JsonToken.VALUE_NULL ? null : text(value, name));
                        }
                    }
                }
            }
            if (type == null) {
                throw malformed("a line without a type");
            }
            return switch (type) {
                case "header" -> {
                    if (!FORMAT.equals(strings.get("format"))) {
                        throw malformed("not an export of format " + FORMAT);
                    }
                    yield new HeaderLine(new Header(require(strings, "workspaceId"), require(strings, "origin"),
                            longOf(strings, "treeSize"), Boolean.TRUE.equals(complete), strings.get("from"), strings.get("to"),
                            strings.containsKey("pendingEntries") ? longOf(strings, "pendingEntries") : 0,
                            strings.get("exportedAt")));
                }
                case "key" -> new KeyLine(require(strings, "vkey"));
                case "checkpoint" -> new CheckpointLine(require(strings, "note"));
                case "consistency" -> new ConsistencyLine(new Consistency(longOf(strings, "fromSize"),
                        proof == null ? List.of() : proof));
                case "entry" -> {
                    if (fields == null) {
                        throw malformed("an entry without fields");
                    }
                    String leaf = strings.get("leafHash");
                    yield new EntryLine(new ExportedEntry(Entry.owning(require(strings, "kind"), fields),
                            leaf == null ? null : hash(leaf), strings.get("payloadExcerpt"), Boolean.TRUE.equals(erased), proof));
                }
                case "end" -> new EndLine(longOf(strings, "entries"));
                default -> throw malformed("unknown line type '" + printable(type) + "'");
            };
        }

        private TreeMap<String, String> readFields(JsonToken start) {
            if (start != JsonToken.START_OBJECT) {
                throw malformed("fields is not an object");
            }
            TreeMap<String, String> fields = new TreeMap<>();
            for (String name = json.nextName(); name != null; name = json.nextName()) {
                JsonToken value = json.nextToken();
                if (value == JsonToken.VALUE_NULL) {
                    fields.put(name, null);
                } else if (value == JsonToken.VALUE_STRING) {
                    fields.put(name, json.getString());
                } else {
                    throw malformed("field '" + printable(name) + "' is not a string or null");
                }
            }
            return fields;
        }

        private List<byte[]> readHashes(JsonToken start) {
            if (start == JsonToken.VALUE_NULL) {
                return null;
            }
            if (start != JsonToken.START_ARRAY) {
                throw malformed("a proof is an array of base64 hashes");
            }
            List<byte[]> hashes = new ArrayList<>(24);
            for (JsonToken token = json.nextToken(); token != JsonToken.END_ARRAY; token = json.nextToken()) {
                if (token != JsonToken.VALUE_STRING || hashes.size() >= 64) {
                    throw malformed("a proof is at most 64 base64 hashes");
                }
                hashes.add(hash(json.getString()));
            }
            return hashes;
        }

        private byte[] hash(String base64) {
            try {
                byte[] hash = Base64.getDecoder().decode(base64);
                if (hash.length == MerkleHasher.HASH_BYTES) {
                    return hash;
                }
            } catch (IllegalArgumentException notBase64) {
                // reported below
            }
            throw malformed("a hash is not 32 bytes in base64");
        }

        private String text(JsonToken value, String name) {
            if (value != JsonToken.VALUE_STRING) {
                throw malformed("'" + printable(name) + "' is not a string");
            }
            return json.getString();
        }

        private String number(JsonToken value, String name) {
            if (value != JsonToken.VALUE_NUMBER_INT) {
                throw malformed("'" + name + "' is not a whole number");
            }
            return Long.toString(json.getLongValue());
        }

        private Boolean bool(JsonToken value, String name) {
            if (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE) {
                return value == JsonToken.VALUE_TRUE;
            }
            throw malformed("'" + name + "' is not true or false");
        }

        private String require(Map<String, String> strings, String name) {
            String value = strings.get(name);
            if (value == null) {
                throw malformed("'" + name + "' missing");
            }
            return value;
        }

        private long longOf(Map<String, String> strings, String name) {
            return Long.parseLong(require(strings, name));
        }

        private MalformedExportException malformed(String problem) {
            return new MalformedExportException("line " + line + ": " + problem);
        }

        private static String printable(String text) {
            String cut = text.length() > 40 ? text.substring(0, 40) + "…" : text;
            return cut.replaceAll("[^\\x20-\\x7e]", "?");
        }

        @Override
        public void close() {
            json.close();
        }
    }

    /** An input that is not an evidence export (the message names the line and the problem, never quoting values). */
    public static final class MalformedExportException extends RuntimeException {
        public MalformedExportException(String message) {
            super(message);
        }
    }
}
