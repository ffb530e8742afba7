package io.agentgateway.toolproxy;

import io.agentgateway.schemas.ClassificationRule;
import java.util.List;
import org.springframework.http.HttpMethod;

/**
 * Chat, docs and internal_api requests: the connection's first rule whose method and path match
 * gives the action and risk; with no match, the safe defaults of {@link DefaultToolActions}. Rules
 * are the admin's to write, so a rule can lower a write to low on purpose; without one nothing is.
 */
final class RuleActions {
    private static final String ANY_METHOD = "*";

    private RuleActions() {}

    static ProxyAction classify(List<ClassificationRule> rules, HttpMethod method, UpstreamPath path) {
        for (ClassificationRule rule : rules) {
            boolean methodMatches = ANY_METHOD.equals(rule.method()) || method.name().equals(rule.method());
            if (methodMatches && RulePathPattern.matches(rule.path(), path.segments())) {
                return ProxyAction.of(rule.action(), rule.risk());
            }
        }
        return DefaultToolActions.classify(method, path);
    }
}
