package io.agentgateway.console.admin;

import io.agentgateway.adminapi.policies.PolicyAdmin;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policy editor's inputs as typed (so that a page with errors shows them again), and the admin API's policy body
 * made of them. Lists are one item per line; empty lists match anything, as in the API.
 */
public record PolicyDraft(String policyId, String name, String priority, boolean enabled, String decision,
                          Set<String> tools, String actions, Set<String> riskLevels, Set<String> sources, String agentIds,
                          String resourceTypes, String resourceIds, String agentIdentity, String description,
                          String condition) {

    /** The API's field → the editor's input. */
    static final Map<String, String> INPUTS = Map.ofEntries(
            Map.entry("name", "name"), Map.entry("priority", "priority"),
            Map.entry("enabled", "enabled"), Map.entry("decision", "decision"),
            Map.entry("description", "description"), Map.entry("condition", "condition"),
            Map.entry("match", "tools"), Map.entry("match.tools", "tools"),
            Map.entry("match.actions", "actions"), Map.entry("match.riskLevels", "riskLevels"),
            Map.entry("match.agentIds", "agentIds"), Map.entry("match.resourceTypes", "resourceTypes"),
            Map.entry("match.resourceIds", "resourceIds"), Map.entry("match.sources", "sources"),
            Map.entry("match.agentIdentity", "agentIdentity"));

    static PolicyDraft blank(int priority) {
        return new PolicyDraft(null, "", Integer.toString(priority), true, "require_approval", Set.of(), "", Set.of(), Set.of(),
                "", "", "", "", "", "");
    }

    static PolicyDraft of(MultiValueMap<String, String> form) {
        return new PolicyDraft(Forms.text(form, "policyId"), orEmpty(form.getFirst("name")), orEmpty(form.getFirst("priority")),
                Forms.checked(form, "enabled"), orEmpty(form.getFirst("decision")), new LinkedHashSet<>(Forms.values(form, "tools")),
                orEmpty(form.getFirst("actions")), new LinkedHashSet<>(Forms.values(form, "riskLevels")),
                new LinkedHashSet<>(Forms.values(form, "sources")), orEmpty(form.getFirst("agentIds")),
                orEmpty(form.getFirst("resourceTypes")), orEmpty(form.getFirst("resourceIds")),
                orEmpty(form.getFirst("agentIdentity")), orEmpty(form.getFirst("description")),
                orEmpty(form.getFirst("condition")));
    }

    /** The editor filled with a live policy. */
    static PolicyDraft of(PolicyAdmin.PolicyView policy) {
        JsonNode match = policy.match();
        return new PolicyDraft(policy.id(), policy.name(), Integer.toString(policy.priority()), policy.enabled(), policy.decision(),
                set(match, "tools"), joined(match, "actions"), set(match, "riskLevels"), set(match, "sources"),
                joined(match, "agentIds"), joined(match, "resourceTypes"), joined(match, "resourceIds"),
                match != null && match.hasNonNull("agentIdentity") ? match.get("agentIdentity").asString() : "",
                policy.description() == null ? "" : policy.description(), policy.condition() == null ? "" : policy.condition());
    }

    /** The admin API's policy body (no id: the path or the server gives it). */
    ObjectNode body() {
        ObjectNode body = Forms.object();
        Forms.putText(body, "name", blankToNull(name));
        Forms.putInteger(body, "priority", blankToNull(priority));
        body.put("enabled", enabled);
        Forms.putText(body, "decision", blankToNull(decision));
        Forms.putText(body, "description", blankToNull(description));
        if (condition != null && !condition.isBlank()) {
            body.put("condition", condition);
        }
        ObjectNode match = body.putObject("match");
        Forms.putList(match, "tools", List.copyOf(tools));
        Forms.putList(match, "actions", Forms.lines(actions));
        Forms.putList(match, "riskLevels", List.copyOf(riskLevels));
        Forms.putList(match, "agentIds", Forms.lines(agentIds));
        Forms.putList(match, "resourceTypes", Forms.lines(resourceTypes));
        Forms.putList(match, "resourceIds", Forms.lines(resourceIds));
        Forms.putList(match, "sources", List.copyOf(sources));
        Forms.putText(match, "agentIdentity", blankToNull(agentIdentity));
        return body;
    }

    /** A live policy's body as the admin API takes it, with its id (a back-test's or a test's candidate set). */
    static ObjectNode body(PolicyAdmin.PolicyView policy) {
        ObjectNode body = Forms.object();
        body.put("id", policy.id());
        body.put("name", policy.name());
        body.put("priority", policy.priority());
        body.put("enabled", policy.enabled());
        body.put("decision", policy.decision());
        Forms.putText(body, "description", policy.description());
        Forms.putText(body, "condition", policy.condition());
        if (policy.match() instanceof ObjectNode match) {
            ObjectNode copy = match.deepCopy();
            // the read model writes absent parts as null; the API's body leaves them out
            List<String> nulls = new ArrayList<>();
            copy.properties().forEach(entry -> {
                if (entry.getValue().isNull()) {
                    nulls.add(entry.getKey());
                }
            });
            nulls.forEach(copy::remove);
            body.set("match", copy);
        }
        return body;
    }

    public boolean isNew() {
        return policyId == null || policyId.isBlank();
    }

    private static Set<String> set(JsonNode match, String field) {
        Set<String> values = new LinkedHashSet<>();
        if (match != null && match.get(field) != null && match.get(field).isArray()) {
            match.get(field).forEach(v -> values.add(v.asString()));
        }
        return values;
    }

    private static String joined(JsonNode match, String field) {
        return String.join("\n", set(match, field));
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
