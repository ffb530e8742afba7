package io.agentgateway.schemas;

/**
 * A workspace policy (DESIGN.md "Policy record"). Enabled policies are tried by ascending
 * {@code priority}; the first whose {@code match} holds yields {@code decision}. Ties are broken by id
 * so that evaluation never depends on insertion order.
 */
public record Policy(
        String id,
        String name,
        int priority,
        boolean enabled,
        Decision decision,
        PolicyMatch match,
        String description) {}
