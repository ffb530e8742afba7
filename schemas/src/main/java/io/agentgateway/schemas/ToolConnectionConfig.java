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
 */
public record ToolConnectionConfig(List<String> repos, String org, String organizationId, String teamId) {

    public static ToolConnectionConfig none() {
        return new ToolConnectionConfig(List.of(), null, null, null);
    }
}
