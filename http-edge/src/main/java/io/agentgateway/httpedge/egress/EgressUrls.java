package io.agentgateway.httpedge.egress;

import io.agentgateway.egress.EgressPolicy;
import io.agentgateway.httpedge.web.ApiException;
import org.springframework.stereotype.Component;

/**
 * The configuration-time half of the egress policy for the admin API: a URL the gateway will connect to
 * ({@code base_url}, {@code mcp_server_url}, {@code chatWebhookUrl}) whose host is refused by the policy is
 * answered 400 naming the field and the rule, before any command is sent. The address a name resolves to is
 * checked when connecting (the resolver of every outbound client).
 */
@Component
public class EgressUrls {
    private final EgressPolicy policy;

    public EgressUrls(EgressPolicy policy) {
        this.policy = policy;
    }

    /** @throws ApiException 400 {@code <field> is refused by the egress policy: <rule>} */
    public void require(String field, String url) {
        if (url == null) {
            return;
        }
        policy.refusalOfUrl(url).ifPresent(rule -> {
            throw ApiException.badField(field, field + " is refused by the egress policy: " + rule);
        });
    }
}
