package io.agentgateway.schemas;

/**
 * A workspace policy (DESIGN.md "Policy record"). Enabled policies are tried by ascending
 * {@code priority}; the first whose {@code match} holds (and whose {@code condition}, when it has one, is true)
 * yields {@code decision}. Ties are broken by id so that evaluation never depends on insertion order.
 *
 * @param condition a CEL expression over what the action does (docs/policies.md), true for the policy to match,
 *                  on top of {@code match}; null: none. A condition whose evaluation fails counts as a match for a
 *                  {@code block} or {@code require_approval} policy and as no match for an {@code allow} one
 */
public record Policy(
        String id,
        String name,
        int priority,
        boolean enabled,
        Decision decision,
        PolicyMatch match,
        String description,
        String condition) {

    /** Without a condition (the form before conditions). */
    public Policy(String id, String name, int priority, boolean enabled, Decision decision, PolicyMatch match,
                  String description) {
        this(id, name, priority, enabled, decision, match, description, null);
    }

    /** Whether a condition must hold too. */
    public boolean hasCondition() {
        return condition != null && !condition.isBlank();
    }

    /** The same policy with another match (a stored policy without one matches any action). */
    public Policy withMatch(PolicyMatch value) {
        return new Policy(id, name, priority, enabled, decision, value, description, condition);
    }

    /** The same policy with another condition. */
    public Policy withCondition(String value) {
        return new Policy(id, name, priority, enabled, decision, match, description, value);
    }
}
