package io.agentgateway.decision.state;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.agentgateway.schemas.Policy;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A workspace's policies: by id, and the enabled ones in evaluation order, worked out once per set.
 * A workspace's configuration value is read far more often than it changes (every evaluation reads it,
 * an admin changes it), so the order is not recomputed per evaluation. Immutable.
 *
 * <p>Stored as a JSON array sorted by id, so the same set is always the same bytes.
 */
public final class PolicySet {
    /** Evaluation order: lower priority first, ties broken by id (never by insertion order). */
    public static final Comparator<Policy> EVALUATION_ORDER =
            Comparator.comparingInt(Policy::priority).thenComparing(Policy::id);
    public static final PolicySet EMPTY = new PolicySet(Map.of());

    private final Map<String, Policy> byId;
    private final List<Policy> enabledInOrder;

    private PolicySet(Map<String, Policy> byId) {
        this.byId = byId;
        this.enabledInOrder = byId.values().stream().filter(Policy::enabled).sorted(EVALUATION_ORDER).toList();
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static PolicySet of(Collection<Policy> policies) {
        if (policies == null || policies.isEmpty()) {
            return EMPTY;
        }
        TreeMap<String, Policy> byId = new TreeMap<>();
        policies.forEach(policy -> {
            if (policy != null && policy.id() != null) {
                byId.put(policy.id(), policy);
            }
        });
        return new PolicySet(Collections.unmodifiableMap(byId));
    }

    @JsonValue
    public List<Policy> list() {
        return List.copyOf(byId.values());
    }

    /** By id, sorted by id. */
    public Map<String, Policy> asMap() {
        return byId;
    }

    public List<Policy> enabledInOrder() {
        return enabledInOrder;
    }

    public Optional<Policy> get(String policyId) {
        return Optional.ofNullable(policyId == null ? null : byId.get(policyId));
    }

    public int size() {
        return byId.size();
    }

    public PolicySet with(Policy policy) {
        TreeMap<String, Policy> next = new TreeMap<>(byId);
        next.put(policy.id(), policy);
        return new PolicySet(Collections.unmodifiableMap(next));
    }

    public PolicySet without(String policyId) {
        if (!byId.containsKey(policyId)) {
            return this;
        }
        TreeMap<String, Policy> next = new TreeMap<>(byId);
        next.remove(policyId);
        return next.isEmpty() ? EMPTY : new PolicySet(Collections.unmodifiableMap(next));
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof PolicySet other && byId.equals(other.byId);
    }

    @Override
    public int hashCode() {
        return byId.hashCode();
    }

    @Override
    public String toString() {
        return "PolicySet" + byId.keySet();
    }
}
