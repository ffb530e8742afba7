package io.agentgateway.schemas.call;

import io.agentgateway.schemas.GatewayJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON text that is the same for equal documents: object properties sorted, nulls kept, no whitespace.
 * Used where JSON is hashed, so that the digest does not depend on the order a client wrote keys in.
 */
public final class CanonicalJson {
    private static final JsonMapper CANONICAL = GatewayJson.MAPPER.rebuild()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .enable(JsonNodeFeature.WRITE_NULL_PROPERTIES)
            .build();

    private CanonicalJson() {}

    public static String of(JsonNode node) {
        return CANONICAL.writeValueAsString(node);
    }
}
