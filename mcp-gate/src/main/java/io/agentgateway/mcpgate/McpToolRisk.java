package io.agentgateway.mcpgate;

import io.agentgateway.schemas.RiskLevel;
import java.util.List;
import java.util.Locale;

/**
 * The risk of an MCP tool from its name (spec 4.3, rule 3). When a name matches several rows the most
 * severe wins (DESIGN.md): {@code list_deleted} is high, {@code get_or_create} medium, so a name
 * cannot look harmless by starting with a read verb.
 */
final class McpToolRisk {
    private static final List<String> READ_PREFIXES = List.of("get", "list", "read");
    private static final List<String> DELETE_WORDS = List.of("delete", "destroy", "drop", "remove");
    private static final List<String> WRITE_WORDS = List.of("create", "update", "write", "post", "send", "merge");

    private McpToolRisk() {}

    static RiskLevel of(String toolName) {
        String name = toolName.toLowerCase(Locale.ROOT);
        if (DELETE_WORDS.stream().anyMatch(name::contains)) {
            return RiskLevel.HIGH;
        }
        if (WRITE_WORDS.stream().anyMatch(name::contains)) {
            return RiskLevel.MEDIUM;
        }
        if (READ_PREFIXES.stream().anyMatch(name::startsWith)) {
            return RiskLevel.LOW;
        }
        return RiskLevel.MEDIUM;
    }
}
