package io.agentgateway.adminapi.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

class ClassificationRuleBodiesTest {

    @Test
    void moreThanAHundredRulesAre400() {
        // 101 rules do not fit the test ingress's 4 KiB body limit, so the reader is called directly
        String rule = "{\"method\":\"GET\",\"path\":\"/x\",\"action\":\"read\",\"risk\":\"low\"}";
        JsonNode rules = GatewayJson.MAPPER.readTree("[" + String.join(",", Collections.nCopies(101, rule)) + "]");

        assertThatThrownBy(() -> ClassificationRuleBodies.parse(rules, Tool.CHAT))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).isEqualTo("config.rules may hold at most 100 rules");
                });
        assertThat(ClassificationRuleBodies.parse(GatewayJson.MAPPER.readTree(
                "[" + String.join(",", Collections.nCopies(100, rule)) + "]"), Tool.CHAT)).hasSize(100);
    }
}
