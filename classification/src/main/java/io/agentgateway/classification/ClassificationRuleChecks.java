package io.agentgateway.classification;

import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.Tool;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a connection's {@code config.rules} must look like. Rules exist only for the tools whose profile names no
 * fixed table ({@link ToolProfile#classifiedByConnectionRules()}: chat, docs and internal_api): the code host and
 * the issue tracker are classified by the spec's tables and the MCP gate by tool name, so a rule there could only
 * mislead the admin who wrote it. The limits keep a rule list small enough to match on every proxied request and
 * to read in a UI.
 *
 * <p>Shared by the admin API (an early 400 with the same text) and the decision stream, which
 * re-checks every command and remains the authority.
 */
public final class ClassificationRuleChecks {
    public static final int MAX_RULES = 100;
    public static final int MAX_PATH_LENGTH = 512;
    public static final int MAX_ACTION_LENGTH = 100;
    private static final List<String> METHODS = List.of("*", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    /** Dot-separated words of lower-case letters, digits, '_' and '-': the shape policies' action globs are written for. */
    private static final Pattern ACTION = Pattern.compile("[a-z0-9_-]+(\\.[a-z0-9_-]+)*");
    /** A literal segment: no wildcard inside it, nothing that would end the path (query, fragment) or escape it. */
    private static final Pattern LITERAL_SEGMENT = Pattern.compile("[^/*?#\\\\\\s]+");

    private ClassificationRuleChecks() {}

    /** @return what is wrong with the rules, or empty; each message names the rule by its 0-based index */
    public static Optional<String> problem(Tool tool, List<ClassificationRule> rules) {
        if (rules.isEmpty()) {
            return Optional.empty();
        }
        if (!ToolProfiles.of(tool).classifiedByConnectionRules()) {
            return Optional.of("config.rules is only for the " + ToolProfiles.listed(ToolProfile::classifiedByConnectionRules, "and")
                    + " tools; " + tool.wire() + " requests are classified by the spec's fixed tables");
        }
        if (rules.size() > MAX_RULES) {
            return Optional.of("config.rules may hold at most " + MAX_RULES + " rules");
        }
        for (int i = 0; i < rules.size(); i++) {
            Optional<String> problem = problem(rules.get(i), "config.rules[" + i + "]");
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> problem(ClassificationRule rule, String name) {
        if (rule == null) {
            return Optional.of(name + " must be an object with method, path, action and risk");
        }
        if (rule.method() == null || !METHODS.contains(rule.method())) {
            return Optional.of(name + ".method must be one of: " + String.join(", ", METHODS));
        }
        Optional<String> path = path(rule.path(), name + ".path");
        if (path.isPresent()) {
            return path;
        }
        if (rule.action() == null || rule.action().length() > MAX_ACTION_LENGTH || !ACTION.matcher(rule.action()).matches()) {
            return Optional.of(name + ".action must be dot-separated words of a-z, 0-9, '_' and '-' (e.g. message.send), "
                    + "at most " + MAX_ACTION_LENGTH + " characters");
        }
        if (rule.risk() == null) {
            return Optional.of(name + ".risk must be one of: low, medium, high, critical");
        }
        return Optional.empty();
    }

    /**
     * {@code /} alone, or segments that are literal, {@code *} (one segment) or a final {@code **} (any
     * further segments). A {@code **} in the middle would make "which rule matches" hard to see at a glance.
     */
    private static Optional<String> path(String path, String name) {
        String shape = name + " must start with / and consist of literal segments, * (one segment) "
                + "and a final ** (any further segments), at most " + MAX_PATH_LENGTH + " characters";
        if (path == null || !path.startsWith("/") || path.length() > MAX_PATH_LENGTH) {
            return Optional.of(shape);
        }
        if (path.equals("/")) {
            return Optional.empty();
        }
        String[] segments = path.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            boolean last = i == segments.length - 1;
            if (segment.equals("**") && !last) {
                return Optional.of(name + " may use ** only as its last segment");
            }
            if (segment.equals(".") || segment.equals("..")) {
                // the proxy refuses such request paths, so a rule naming them could never match
                return Optional.of(name + " must not contain '.' or '..' segments");
            }
            if (!segment.equals("*") && !segment.equals("**") && !LITERAL_SEGMENT.matcher(segment).matches()) {
                return Optional.of(shape);
            }
        }
        return Optional.empty();
    }
}
