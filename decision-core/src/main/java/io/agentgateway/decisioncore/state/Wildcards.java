package io.agentgateway.decisioncore.state;

/**
 * The decision core's one pattern language: {@code *} is any run of characters (also none), everything else is
 * literal. Used by policies (tool, action, resource, agent patterns) and by keys bound to an agent pattern, so
 * both read a pattern the same way (and the core needs no Spring for it).
 */
public final class Wildcards {
    private Wildcards() {}

    /** Whether {@code value} matches {@code pattern}. Greedy with one backtrack point: linear for the patterns used. */
    public static boolean matches(String pattern, String value) {
        int p = 0;
        int v = 0;
        int star = -1;
        int resume = 0;
        while (v < value.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = v;
            } else if (p < pattern.length() && pattern.charAt(p) == value.charAt(v)) {
                p++;
                v++;
            } else if (star >= 0) {
                p = star + 1;
                v = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
