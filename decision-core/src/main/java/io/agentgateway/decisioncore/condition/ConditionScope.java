package io.agentgateway.decisioncore.condition;

import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelVariableResolver;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.condition.RequestFacts;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The variables of one action's conditions (docs/policies.md), built when a condition first reads them and then
 * shared by every condition of the same decision: a decision that reaches no conditional policy builds nothing, one
 * whose conditions read only {@code action} never converts the arguments. A variable that has no value is absent
 * (reading it fails); an absent key of a map variable likewise ({@code has(target.branch)} tests for it).
 * One decision, one thread.
 */
public final class ConditionScope implements CelVariableResolver {
    private final ConditionInput input;
    private final ConditionLimits limits;
    private final Map<String, Optional<Object>> resolved = new HashMap<>(16);
    private String argumentsProblem;
    private boolean argumentsChecked;

    public ConditionScope(ConditionInput input, ConditionLimits limits) {
        this.input = input;
        this.limits = limits;
    }

    public ConditionInput input() {
        return input;
    }

    @Override
    public Optional<Object> find(String name) {
        Optional<Object> value = resolved.get(name);
        if (value == null) {
            value = Optional.ofNullable(build(name));
            resolved.put(name, value);
        }
        return value;
    }

    /**
     * Why {@code args} cannot be read (the entry point left them out, or they are over the size a condition may read),
     * or null when they can. Never a cut copy: a padded request must not slip past a condition.
     */
    String argumentsProblem() {
        if (!argumentsChecked) {
            argumentsChecked = true;
            ActionFacts facts = input.facts();
            if (facts.argumentsUnavailable() != null) {
                argumentsProblem = facts.argumentsUnavailable();
            } else if (facts.arguments() != null) {
                int bytes = GatewayJson.MAPPER.writeValueAsBytes(facts.arguments()).length;
                if (bytes > limits.maxArgumentsBytes()) {
                    argumentsProblem = "args are " + bytes + " bytes, over the " + limits.maxArgumentsBytes()
                            + " a condition may read (gateway.decision.conditions.max-arguments-bytes)";
                }
            }
        }
        return argumentsProblem;
    }

    private Object build(String name) {
        ActionFacts facts = input.facts();
        return switch (name) {
            case "tool" -> input.tool() == null ? null : input.tool().wire();
            case "action" -> input.action();
            case "risk" -> input.risk() == null ? null : input.risk().wire();
            case "source" -> input.source() == null ? null : input.source().wire();
            case "requestedBy" -> facts.requestedBy() == null ? NullValue.NULL_VALUE : facts.requestedBy();
            case "agent" -> agent();
            case "resource" -> resource();
            case "args" -> argumentsProblem() != null ? null
                    : facts.arguments() == null ? Map.of() : JsonValues.of(facts.arguments());
            case "request" -> request(facts.request());
            case "target" -> Targets.of(input);
            case "time" -> time();
            default -> null;
        };
    }

    private Map<String, Object> agent() {
        Map<String, Object> agent = new LinkedHashMap<>();
        putIfKnown(agent, "id", input.agentId());
        putIfKnown(agent, "name", input.facts().agentName());
        agent.put("bound", input.agentIdentity() == AgentIdentity.BOUND);
        return agent;
    }

    private Map<String, Object> resource() {
        Map<String, Object> resource = new LinkedHashMap<>();
        putIfKnown(resource, "type", input.resourceType());
        putIfKnown(resource, "id", input.resourceId());
        return resource;
    }

    private static Map<String, Object> request(RequestFacts facts) {
        if (facts == null) {
            return Map.of();
        }
        Map<String, Object> request = new LinkedHashMap<>();
        putIfKnown(request, "method", facts.method());
        if (facts.path() != null) {
            request.put("path", List.copyOf(facts.path()));
        }
        if (facts.query() != null) {
            Map<String, Object> query = new LinkedHashMap<>();
            facts.query().forEach((key, values) -> {
                if (key != null && values != null) {
                    query.put(key, values.stream().filter(v -> v != null).toList());
                }
            });
            request.put("query", query);
        }
        putIfKnown(request, "operationName", facts.operationName());
        if (facts.mutationFields() != null) {
            request.put("mutationFields", List.copyOf(facts.mutationFields()));
        }
        return request;
    }

    /** The command's own time in the workspace's time zone, with its parts (a replay reads the same). */
    private Map<String, Object> time() {
        if (input.facts().at() == null) {
            return Map.of();
        }
        ZonedDateTime local = input.facts().at().atZone(input.zone());
        Map<String, Object> time = new LinkedHashMap<>();
        time.put("timestamp", input.facts().at());
        time.put("zone", input.zone().getId());
        time.put("year", (long) local.getYear());
        time.put("month", (long) local.getMonthValue());
        time.put("day", (long) local.getDayOfMonth());
        time.put("hour", (long) local.getHour());
        time.put("minute", (long) local.getMinute());
        time.put("weekday", local.getDayOfWeek().name().toLowerCase(Locale.ROOT));
        time.put("isoWeekday", (long) local.getDayOfWeek().getValue());
        time.put("date", local.toLocalDate().toString());
        return time;
    }

    private static void putIfKnown(Map<String, Object> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
