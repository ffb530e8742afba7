package io.agentgateway.httpedge.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Issue 14: a 100 KB action or policy name was accepted and echoed into every reason. */
class BodyStringLimitsTest {

    private static JsonNode json(String text) {
        return IngressJson.REQUESTS.readTree(text);
    }

    @Test
    void namesActionsAndIdsAreBoundAndTheErrorNamesTheField() {
        String longName = "n".repeat(257);

        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"name\":\"" + longName + "\"}")))
                .isInstanceOf(ApiException.class).hasMessage("name must be a string of at most 256 characters");
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"tool\":\"mcp\",\"action\":\"" + "a".repeat(100_000) + "\"}")))
                .hasMessage("action must be a string of at most 256 characters");
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"match\":{\"actions\":[\"ok\",\"" + longName + "\"]}}")))
                .hasMessage("match.actions[1] must be a string of at most 256 characters");
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"policies\":[{\"name\":\"" + longName + "\"}]}")))
                .hasMessage("policies[0].name must be a string of at most 256 characters");
        assertThatCode(() -> BodyStringLimits.check(json("{\"name\":\"" + "n".repeat(256) + "\"}"))).doesNotThrowAnyException();
    }

    @Test
    void descriptionsReasonsUrlsAndOtherStringsHaveTheirOwnLimits() {
        assertThatCode(() -> BodyStringLimits.check(json("{\"description\":\"" + "d".repeat(2000) + "\"}"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"reason\":\"" + "r".repeat(2001) + "\"}")))
                .hasMessage("reason must be a string of at most 2000 characters");
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"mcp_server_url\":\"https://x/" + "u".repeat(2048) + "\"}")))
                .hasMessage("mcp_server_url must be a string of at most 2048 characters");
        assertThatCode(() -> BodyStringLimits.check(json("{\"config\":{\"access_token\":\"" + "t".repeat(8192) + "\"}}")))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"config\":{\"access_token\":\"" + "t".repeat(8193) + "\"}}")))
                .hasMessage("config.access_token must be a string of at most 8192 characters");
    }

    @Test
    void theEvaluationPayloadIsFreeFormButFieldNamesAreBound() {
        assertThatCode(() -> BodyStringLimits.check(json("{\"payload\":{\"name\":\"" + "p".repeat(50_000) + "\"}}")))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> BodyStringLimits.check(json("{\"" + "k".repeat(300) + "\":1}")))
                .hasMessage("field names must be at most 256 characters");
    }

    @Test
    void timestampsOutsideWhatTheDatabaseHoldsAreA400NotA500() {
        assertThatThrownBy(() -> JsonFields.instant("+999999999-01-01T00:00:00Z", "from"))
                .isInstanceOf(ApiException.class)
                .hasMessage("from must be an ISO-8601 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
        assertThatThrownBy(() -> JsonFields.instant("-000001-01-01T00:00:00Z", "to")).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> JsonFields.instant("yesterday", "to")).hasMessage("to must be an ISO-8601 timestamp");
        assertThat(JsonFields.instant("9999-12-31T23:59:59Z", "to")).isEqualTo(Instant.parse("9999-12-31T23:59:59Z"));
    }
}
