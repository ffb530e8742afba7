package io.agentgateway.classification;

import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Spec 4.1: for a tool whose profile names a risk table (the code host and the issue tracker, spec 4.5's tables)
 * the risk comes from the action string, whatever the caller supplied; for every other tool the caller's level
 * stands.
 * Actions outside the tables follow DESIGN.md: read-like actions are low, delete-like ones high,
 * everything else medium, so an unknown write can never come out as low.
 */
public final class RiskClassifier {

    private static final Set<String> READ_VERBS = Set.of("get", "list", "read", "search", "view");
    private static final List<String> DELETE_WORDS = List.of("delete", "destroy", "drop", "remove");

    /**
     * @return empty when the tool takes the caller's level and the caller supplied none
     */
    public Optional<ClassifiedRisk> classify(Tool tool, String action, RiskLevel supplied) {
        Map<String, RiskLevel> table = serverSideTable(tool);
        if (table == null) {
            return Optional.ofNullable(supplied)
                    .map(level -> new ClassifiedRisk(level, RiskClassification.CALLER_SUPPLIED));
        }
        String normalized = action.trim().toLowerCase(Locale.ROOT);
        RiskLevel level = table.getOrDefault(normalized, unlistedActionRisk(normalized));
        return Optional.of(new ClassifiedRisk(level, RiskClassification.SERVER_CLASSIFIED));
    }

    /** The tool's risk table (its profile's), or null when the caller's level stands. */
    private static Map<String, RiskLevel> serverSideTable(Tool tool) {
        return tool == null ? null : ToolProfiles.of(tool).riskTable().orElse(null);
    }

    /** Actions have the form {@code <resource>.<verb>}; the words are split on dots, underscores and dashes. */
    static RiskLevel unlistedActionRisk(String action) {
        List<String> words = Arrays.asList(action.split("[._\\-]+"));
        if (words.stream().anyMatch(word -> DELETE_WORDS.stream().anyMatch(word::contains))) {
            return RiskLevel.HIGH;
        }
        String verb = words.isEmpty() ? "" : words.get(words.size() - 1);
        if (action.equals("read") || READ_VERBS.contains(verb)) {
            return RiskLevel.LOW;
        }
        return RiskLevel.MEDIUM;
    }
}
