package io.agentgateway.toolproxy;

import io.agentgateway.classification.PathTemplateActions;
import io.agentgateway.schemas.RiskLevel;
import org.springframework.http.HttpMethod;

/**
 * Chat, docs and internal APIs have no table in the spec: their requests get the safe defaults that
 * DESIGN.md gives unmatched code-host calls. Safe methods are {@code read}/low, {@code DELETE} is
 * high, every other write medium; the action string is {@link PathTemplateActions}'. A write can
 * never come out as low.
 */
final class DefaultToolActions {
    private DefaultToolActions() {}

    static ProxyAction classify(HttpMethod method, UpstreamPath path) {
        String action = PathTemplateActions.of(method.name(), path.segments());
        if (PathTemplateActions.isSafe(method.name())) {
            return ProxyAction.of(action, RiskLevel.LOW);
        }
        return ProxyAction.of(action, method.equals(HttpMethod.DELETE) ? RiskLevel.HIGH : RiskLevel.MEDIUM);
    }
}
