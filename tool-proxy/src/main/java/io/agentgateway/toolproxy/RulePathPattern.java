package io.agentgateway.toolproxy;

import java.util.List;

/**
 * Matches a classification rule's path pattern against a request's canonical (decoded) path segments.
 * Pattern segments are literal (compared case-insensitively: a request that differs from an admin's
 * rule only by case must not escape it, whether or not the upstream routes case-insensitively),
 * {@code *} (exactly one segment of any value) or, last only, {@code **} (any number of further
 * segments, none included, so {@code /admin/**} also covers {@code /admin}). The pattern {@code /}
 * matches the root only. The decision stream has already refused patterns of any other shape.
 */
final class RulePathPattern {
    private static final String ONE = "*";
    private static final String REST = "**";

    private RulePathPattern() {}

    static boolean matches(String pattern, List<String> segments) {
        List<String> parts = pattern.equals("/") ? List.of() : List.of(pattern.substring(1).split("/", -1));
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if (part.equals(REST)) {
                return true;
            }
            if (i >= segments.size() || !(part.equals(ONE) || part.equalsIgnoreCase(segments.get(i)))) {
                return false;
            }
        }
        return parts.size() == segments.size();
    }
}
