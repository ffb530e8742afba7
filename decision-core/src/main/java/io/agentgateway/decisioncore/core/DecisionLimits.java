package io.agentgateway.decisioncore.core;

/**
 * Per-workspace limits. A command that would go over one is refused with the reply status
 * {@code limited} (HTTP 429) and an audit entry ({@code LimitReached}); an evaluation that would open an
 * approval over {@link #openApprovals} is decided {@code block} instead (fail closed) and audited as
 * such. The kill switch is never refused by any limit. They bound what the decision stream stores per
 * workspace, so that no record comes near the broker's size limit and a decision costs the same in a big
 * workspace as in a small one.
 *
 * @param openApprovals             approvals a workspace holds at once (pending, approved with a call to
 *                                  run, executing)
 * @param apiKeys                   keys a workspace holds, revoked and expired ones included until they
 *                                  leave the state ({@code api-key-grace} after they ended)
 * @param policies                  policies per workspace
 * @param policyBytes               the size of one policy as JSON
 * @param repositoriesPerConnection entries of a code-host connection's {@code config.repos}
 * @param configurationBytes        the size of the workspace's configuration value as stored (policies,
 *                                  members, tool connections, settings together); at most
 *                                  {@link #MAX_CONFIGURATION_BYTES}, which leaves the headroom below the
 *                                  changelog's 1 MiB {@code max.message.bytes} that the kill switch and a
 *                                  tool pause may still add
 */
public record DecisionLimits(
        long openApprovals,
        long apiKeys,
        int policies,
        int policyBytes,
        int repositoriesPerConnection,
        int configurationBytes) {

    public static final long DEFAULT_OPEN_APPROVALS = 10_000;
    public static final long DEFAULT_API_KEYS = 10_000;
    public static final int DEFAULT_POLICIES = 1_000;
    public static final int DEFAULT_POLICY_BYTES = 16 * 1024;
    public static final int DEFAULT_REPOSITORIES_PER_CONNECTION = 1_000;
    public static final int DEFAULT_CONFIGURATION_BYTES = 512 * 1024;
    public static final int MAX_CONFIGURATION_BYTES = 768 * 1024;

    /** Wire names of the limits, as {@code LimitReached.limit} and {@code ActionEvaluated.limitReached} carry them. */
    public static final String OPEN_APPROVALS = "open_approvals";
    public static final String API_KEYS = "api_keys";
    public static final String POLICIES = "policies";
    public static final String POLICY_BYTES = "policy_bytes";
    public static final String REPOSITORIES_PER_CONNECTION = "repositories_per_connection";
    public static final String CONFIGURATION_BYTES = "configuration_bytes";

    public DecisionLimits {
        if (openApprovals < 1 || apiKeys < 1 || policies < 1 || policyBytes < 1 || repositoriesPerConnection < 1) {
            throw new IllegalArgumentException("every workspace limit must be at least 1");
        }
        if (configurationBytes < 4096 || configurationBytes > MAX_CONFIGURATION_BYTES) {
            throw new IllegalArgumentException("configurationBytes must be between 4096 and " + MAX_CONFIGURATION_BYTES);
        }
    }

    public static DecisionLimits defaults() {
        return new DecisionLimits(DEFAULT_OPEN_APPROVALS, DEFAULT_API_KEYS, DEFAULT_POLICIES, DEFAULT_POLICY_BYTES,
                DEFAULT_REPOSITORIES_PER_CONNECTION, DEFAULT_CONFIGURATION_BYTES);
    }

    public DecisionLimits withOpenApprovals(long value) {
        return new DecisionLimits(value, apiKeys, policies, policyBytes, repositoriesPerConnection, configurationBytes);
    }

    public DecisionLimits withApiKeys(long value) {
        return new DecisionLimits(openApprovals, value, policies, policyBytes, repositoriesPerConnection, configurationBytes);
    }

    public DecisionLimits withPolicies(int value) {
        return new DecisionLimits(openApprovals, apiKeys, value, policyBytes, repositoriesPerConnection, configurationBytes);
    }

    public DecisionLimits withPolicyBytes(int value) {
        return new DecisionLimits(openApprovals, apiKeys, policies, value, repositoriesPerConnection, configurationBytes);
    }

    public DecisionLimits withRepositoriesPerConnection(int value) {
        return new DecisionLimits(openApprovals, apiKeys, policies, policyBytes, value, configurationBytes);
    }

    public DecisionLimits withConfigurationBytes(int value) {
        return new DecisionLimits(openApprovals, apiKeys, policies, policyBytes, repositoriesPerConnection, value);
    }
}
