package io.agentgateway.toolproxy;

import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.schemas.ClassificationRule;
import java.util.List;

/**
 * A workspace's usable connection to a proxied tool: where its calls go, and its classification rules
 * (empty but for chat, docs and internal_api).
 */
record ProxyTarget(UpstreamTarget upstream, List<ClassificationRule> rules) {

    ProxyTarget {
        rules = List.copyOf(rules);
    }
}
