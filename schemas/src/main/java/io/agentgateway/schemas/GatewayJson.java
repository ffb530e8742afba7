package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * The one JSON configuration of the wire contract. Unknown properties are ignored so that a reader
 * of version 1 keeps working when a later writer adds optional fields; nulls are left out to keep
 * the log compact; instants and durations are ISO-8601 strings so the log is readable by people
 * (read back by {@link UtcInstantDeserializer}, which takes the common UTC form off the slow path).
 * Blackbird gets and sets bean properties through generated lambdas the JIT inlines, instead of Jackson 3's
 * method handles: the same JSON for less CPU (reading and writing it is about a third of the decision stream
 * thread's samples under load).
 */
public final class GatewayJson {
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .addModule(new BlackbirdModule())
            .addModule(new SimpleModule("utc-instants").addDeserializer(Instant.class, new UtcInstantDeserializer()))
            .build();

    private GatewayJson() {}
}
