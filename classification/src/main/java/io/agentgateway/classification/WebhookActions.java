package io.agentgateway.classification;

import java.util.Locale;

/**
 * The action string policies see for a webhook event: the event kind in snake case, then the
 * payload's action: {@code pull_request} + {@code opened} → {@code pull_request.opened},
 * {@code Issue} + {@code create} → {@code issue.create}, {@code push} → {@code push}.
 */
public final class WebhookActions {
    private WebhookActions() {}

    public static String of(String eventKind, String eventAction) {
        String kind = snakeCase(eventKind.trim());
        return eventAction == null || eventAction.isBlank() ? kind : kind + "." + snakeCase(eventAction.trim());
    }

    /** {@code IssueLabel} → {@code issue_label}; already snake-case names are kept. */
    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(name.charAt(i - 1))) {
                out.append('_');
            }
            out.append(c);
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
