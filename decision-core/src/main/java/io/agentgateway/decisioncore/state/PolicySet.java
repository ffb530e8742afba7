package io.agentgateway.decisioncore.state;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.agentgateway.decisioncore.condition.CompiledCondition;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.schemas.Policy;
import java.util.Collection;
import java.util.Collections;
import io.agentgateway.schemas.Tool;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

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
    /** Per tool, the enabled policies that can apply to it (no tools named, or this one), in evaluation order. */
    private final Map<Tool, List<Policy>> enabledInOrderByTool;
    /** The compiled conditions of the enabled policies, linked once per set and environment (see {@link #conditions}). */
    private final AtomicReference<LinkedConditions> conditions = new AtomicReference<>();

    private record LinkedConditions(ConditionEnvironment environment, Map<String, CompiledCondition> byPolicy) {}

    private PolicySet(Map<String, Policy> byId) {
        this.byId = byId;
        this.enabledInOrder = byId.values().stream().filter(Policy::enabled).sorted(EVALUATION_ORDER).toList();
        EnumMap<Tool, List<Policy>> byTool = new EnumMap<>(Tool.class);
        for (Tool tool : Tool.values()) {
            byTool.put(tool, enabledInOrder.stream().filter(policy -> appliesTo(policy, tool)).toList());
        }
        this.enabledInOrderByTool = byTool;
    }

    private static boolean appliesTo(Policy policy, Tool tool) {
        return policy.match() == null || policy.match().tools() == null || policy.match().tools().isEmpty()
                || policy.match().tools().contains(tool);
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

    /**
     * The enabled policies that can match a request to {@code tool}, in evaluation order: the same first
     * match as {@link #enabledInOrder()}, without trying the policies written for other tools (a workspace of
     * 1,000 policies spread over the tools tries a sixth of them).
     */
    public List<Policy> enabledInOrderFor(Tool tool) {
        return tool == null ? enabledInOrder : enabledInOrderByTool.get(tool);
    }

    /**
     * The compiled condition of each enabled conditional policy, by policy id: linked on first use and kept with this
     * set (which the decision stream keeps with the workspace's configuration), so a decision never compiles; a
     * condition compiled before (another version of the set) is taken from the environment's programs.
     */
    public Map<String, CompiledCondition> conditions(ConditionEnvironment environment) {
        LinkedConditions linked = conditions.get();
        if (linked == null || linked.environment() != environment) {
            linked = new LinkedConditions(environment, environment.compileAll(enabledInOrder));
            conditions.set(linked);
        }
        return linked.byPolicy();
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
