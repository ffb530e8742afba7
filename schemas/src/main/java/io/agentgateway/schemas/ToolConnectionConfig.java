package io.agentgateway.schemas;

import java.util.List;

/**
 * The non-secret {@code config} of a tool connection (spec section 2), by which inbound webhooks are
 * matched to a workspace (spec section 6).
 *
 * @param repos           code host only: repositories as {@code owner/repo}
 * @param org             code host only: organization login
 * @param organizationId  issue tracker only: organization id
 * @param teamId          issue tracker only: team id
 * @param rules           chat, docs and internal_api only: classification rules in order, first match wins;
 *                        never null (a record written before rules existed reads as none)
 */
public record ToolConnectionConfig(List<String> repos, String org, String organizationId, String teamId,
                                   List<ClassificationRule> rules) {

    public ToolConnectionConfig {
        // only absence is mapped here; null entries are left for the decision stream to refuse with a message
        rules = rules == null ? List.of() : rules;
    }

    /** A config without classification rules (every tool but chat, docs and internal_api). */
    public ToolConnectionConfig(List<String> repos, String org, String organizationId, String teamId) {
        this(repos, org, organizationId, teamId, List.of());
    }

    public static ToolConnectionConfig none() {
        return new ToolConnectionConfig(List.of(), null, null, null);
    }
}
