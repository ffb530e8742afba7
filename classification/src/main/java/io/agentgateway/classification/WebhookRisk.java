package io.agentgateway.classification;

import io.agentgateway.schemas.RiskLevel;
import java.util.Locale;
import java.util.Set;

/**
 * The risk of an inbound webhook event, classified by the gateway (a sender cannot supply one). The
 * rule, most severe first:
 * <ul>
 *   <li>high: something was destroyed or access changed: an event whose action is a deletion or
 *       removal ({@code deleted}, {@code removed}, {@code remove}, {@code transferred}, ...), a branch
 *       or tag {@code delete}, and every event about members, teams, the organization, deploy keys,
 *       branch protection or rulesets;</li>
 *   <li>medium: code or state moved forward: {@code push}, {@code release}, a closed (possibly merged)
 *       pull request, an issue tracker {@code update};</li>
 *   <li>low: everything else (opened, created, commented, labeled, ping, ...).</li>
 * </ul>
 * Nothing is critical: the event has already happened upstream; the decision records how the
 * workspace's policies judge it.
 */
public final class WebhookRisk {
    private static final Set<String> HIGH_KINDS = Set.of("delete", "member", "membership", "organization", "team",
            "team_add", "deploy_key", "branch_protection_rule", "branch_protection_configuration",
            "repository_ruleset", "org_block", "personal_access_token_request");
    private static final Set<String> HIGH_ACTIONS = Set.of("deleted", "delete", "remove", "removed", "transferred",
            "privatized", "publicized", "archived", "member_removed", "destroyed");
    private static final Set<String> MEDIUM_KINDS = Set.of("push", "release", "create", "deployment", "workflow_dispatch");
    private static final Set<String> MEDIUM_ACTIONS = Set.of("closed", "merged", "update", "edited", "reopened");

    /**
     * The risk of a webhook action string ({@link WebhookActions}: {@code kind} or {@code kind.action}).
     * Classified from the string alone so that a back-test replaying the audit entry derives the same
     * risk as the live decision did.
     */
    public RiskLevel classifyAction(String action) {
        int dot = action.indexOf('.');
        return dot < 0 ? classify(action, null) : classify(action.substring(0, dot), action.substring(dot + 1));
    }

    public RiskLevel classify(String eventKind, String eventAction) {
        String kind = normalize(eventKind);
        String action = normalize(eventAction);
        if (HIGH_KINDS.contains(kind) || HIGH_ACTIONS.contains(action)) {
            return RiskLevel.HIGH;
        }
        if (MEDIUM_KINDS.contains(kind) || MEDIUM_ACTIONS.contains(action)) {
            return RiskLevel.MEDIUM;
        }
        return RiskLevel.LOW;
    }

    private static String normalize(String value) {
        return value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    }
}
