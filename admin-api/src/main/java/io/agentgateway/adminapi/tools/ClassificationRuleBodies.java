package io.agentgateway.adminapi.tools;

import static io.agentgateway.httpedge.web.JsonFields.onlyKnownFields;

import io.agentgateway.classification.ClassificationRuleChecks;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@code config.rules} of a tool connection PUT: an array of objects with {@code method},
 * {@code path}, {@code action} and {@code risk} (format: docs/proxy.md, "Classification rules").
 * The JSON shape is checked here, then {@link ClassificationRuleChecks}, so a bad rule is a 400 before
 * anything is sent; the decision stream checks the same again as the authority.
 */
final class ClassificationRuleBodies {
    private static final Set<String> FIELDS = Set.of("method", "path", "action", "risk");
    private static final String RISK_MESSAGE = ".risk must be one of: low, medium, high, critical";

    private ClassificationRuleBodies() {}

    static List<ClassificationRule> parse(JsonNode value, Tool tool) {
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw ApiException.badRequest("config.rules must be an array of {method, path, action, risk} objects");
        }
        if (value.size() > ClassificationRuleChecks.MAX_RULES) {
            // before each rule is read: the count alone refuses an oversized list
            throw ApiException.badRequest("config.rules may hold at most " + ClassificationRuleChecks.MAX_RULES + " rules");
        }
        List<ClassificationRule> rules = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            rules.add(rule(value.get(i), "config.rules[" + i + "]"));
        }
        ClassificationRuleChecks.problem(tool, rules).ifPresent(problem -> {
            throw ApiException.badRequest(problem);
        });
        return List.copyOf(rules);
    }

    private static ClassificationRule rule(JsonNode node, String name) {
        if (!node.isObject()) {
            throw ApiException.badRequest(name + " must be an object with method, path, action and risk");
        }
        onlyKnownFields(node, FIELDS, name + ".");
        String riskText = text(node, "risk", name);
        RiskLevel risk = riskText == null ? null
                : RiskLevel.parse(riskText).orElseThrow(() -> ApiException.badRequest(name + RISK_MESSAGE));
        return new ClassificationRule(text(node, "method", name), text(node, "path", name), text(node, "action", name), risk);
    }

    /** A string field, or null when absent (the checks then name what is missing). */
    private static String text(JsonNode node, String field, String name) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw ApiException.badRequest(name + "." + field + " must be a string");
        }
        return value.stringValue();
    }
}
