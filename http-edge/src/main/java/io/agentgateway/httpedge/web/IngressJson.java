package io.agentgateway.httpedge.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.agentgateway.schemas.GatewayJson;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ingress's own JSON settings, independent of whatever Jackson configuration the application
 * context has (several modules share one classpath in the launcher).
 */
public final class IngressJson {

    /**
     * Request bodies: a duplicated key or trailing garbage is refused, because a security check must
     * not read a different value than the one a later reader would pick.
     */
    public static final JsonMapper REQUESTS = GatewayJson.MAPPER.rebuild()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Response bodies: nulls are written (the API promises e.g. {@code matchedPolicyId: null}). */
    public static final JsonMapper RESPONSES = GatewayJson.MAPPER.rebuild()
            .changeDefaultPropertyInclusion(incl -> incl
                    .withValueInclusion(JsonInclude.Include.ALWAYS)
                    .withContentInclusion(JsonInclude.Include.ALWAYS))
            .build();

    private IngressJson() {}
}
