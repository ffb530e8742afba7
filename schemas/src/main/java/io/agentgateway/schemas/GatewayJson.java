package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * The one JSON configuration of the wire contract. Unknown properties are ignored so that a reader
 * of version 1 keeps working when a later writer adds optional fields; nulls are left out to keep
 * the log compact; instants and durations are ISO-8601 strings so the log is readable by people
 * (read back by {@link UtcInstantDeserializer}, which takes the common UTC form off the slow path).
 */
public final class GatewayJson {
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .addModule(new SimpleModule("utc-instants").addDeserializer(Instant.class, new UtcInstantDeserializer()))
            .build();

    private GatewayJson() {}
}
