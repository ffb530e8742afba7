package io.agentgateway.httpedge.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The forms of an agent's key: Bearer, token and the bare key, and nothing else taken for one. */
class ApiKeySchemeTest {
    private static final String KEY = ApiKeys.generate(UUID.randomUUID());
    private static final Set<ApiKeyScheme> ALL = EnumSet.allOf(ApiKeyScheme.class);

    @Test
    void eachSchemeReadsItsOwnFormAndNoOther() {
        assertThat(ApiKeyScheme.BEARER.key("Bearer " + KEY)).contains(KEY);
        assertThat(ApiKeyScheme.BEARER.key("bearer " + KEY)).contains(KEY);
        assertThat(ApiKeyScheme.TOKEN.key("token " + KEY)).contains(KEY);
        assertThat(ApiKeyScheme.TOKEN.key("Token " + KEY)).contains(KEY);
        assertThat(ApiKeyScheme.RAW.key(KEY)).contains(KEY);

        assertThat(ApiKeyScheme.BEARER.key("token " + KEY)).isEmpty();
        assertThat(ApiKeyScheme.BEARER.key(KEY)).isEmpty();
        assertThat(ApiKeyScheme.TOKEN.key("Bearer " + KEY)).isEmpty();
        assertThat(ApiKeyScheme.TOKEN.key(KEY)).isEmpty();
        assertThat(ApiKeyScheme.RAW.key("Bearer " + KEY)).isEmpty();
        assertThat(ApiKeyScheme.RAW.key("token " + KEY)).isEmpty();
    }

    @Test
    void onlyTheAcceptedSchemesAreRead() {
        Set<ApiKeyScheme> bearerOnly = EnumSet.of(ApiKeyScheme.BEARER);
        assertThat(ApiKeyScheme.key("Bearer " + KEY, bearerOnly)).contains(KEY);
        assertThat(ApiKeyScheme.key("token " + KEY, bearerOnly)).isEmpty();
        assertThat(ApiKeyScheme.key(KEY, bearerOnly)).isEmpty();
        assertThat(ApiKeyScheme.key("token " + KEY, ALL)).contains(KEY);
        assertThat(ApiKeyScheme.key(KEY, ALL)).contains(KEY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "Bearer", "Bearer ", "token", "Basic YWdrXzp4", "Digest agk_x", "Bearer agk_a agk_b",
            "token agk_a\tb", "agk_a agk_b", "xagk_abc", " Bearer", "Bearertoken agk_x", "Token:agk_x", "Bearer\tagk_x"})
    void otherSchemesAndMalformedValuesAreNoKey(String authorization) {
        assertThat(ApiKeyScheme.key(authorization, ALL)).isEmpty();
    }

    @Test
    void aBareValueMustLookLikeAnAgentKey() {
        // another credential sent bare (a tool's own token) is never taken for a key
        assertThat(ApiKeyScheme.RAW.key("lin_api_0123456789")).isEmpty();
        assertThat(ApiKeyScheme.RAW.key("ghp_0123456789")).isEmpty();
        assertThat(ApiKeyScheme.key(null, ALL)).isEmpty();
    }
}
