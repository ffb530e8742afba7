package io.agentgateway.schemas;

import io.agentgateway.schemas.Topics.Topic;
import java.util.List;

/**
 * One sample record as it travels on a topic: which topics carry it, the sample itself, the JSON
 * Schemas its serialized form must satisfy and the golden file that pins its v1 wire form.
 *
 * @param name     also the golden file's base name, e.g. {@code event_action_evaluated}
 * @param topics   every topic whose value serde must round-trip the sample
 * @param schemas  the whole record against its envelope schema, and the variant inside it against
 *                 the variant's own schema
 */
record WireCase(String name, List<Topic<String, ?>> topics, Object sample, List<SchemaCheck> schemas) {

    /** Validate the JSON at {@code pointer} (RFC 6901, "" for the whole document) against {@code schemaPath}. */
    record SchemaCheck(String schemaPath, String pointer) {}

    String goldenFile() {
        return name + ".json";
    }

    Class<?> type() {
        return sample.getClass();
    }

    @Override
    public String toString() {
        return name;
    }
}
