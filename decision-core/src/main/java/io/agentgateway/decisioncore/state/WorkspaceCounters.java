package io.agentgateway.decisioncore.state;

/**
 * The small per-workspace value every state-changing command writes: the versions and the number of
 * entries the workspace holds, so that a change of one approval or key writes a few dozen bytes and
 * not the workspace's configuration, and a limit is checked without counting entries.
 *
 * @param workspaceVersion  bumps with every command that changes the workspace's state (configuration or
 *                          entries); the events of a command carry it. The decision stream's own sweeps
 *                          (an approval expiring, an ended key leaving) do not bump it: they change nothing
 *                          any decision reads
 * @param configVersion     bumps with every change of the configuration value; a cached configuration is
 *                          used only while this still matches
 * @param openApprovals     approvals the workspace holds (pending, approved with a call to run, executing)
 * @param apiKeys           keys the workspace holds, revoked and expired ones included until they leave
 */
public record WorkspaceCounters(long workspaceVersion, long configVersion, long openApprovals, long apiKeys) {
    public static final WorkspaceCounters NONE = new WorkspaceCounters(0, 0, 0, 0);

    public WorkspaceCounters withWorkspaceVersion(long version) {
        return new WorkspaceCounters(version, configVersion, openApprovals, apiKeys);
    }

    public WorkspaceCounters withConfigVersion(long version) {
        return new WorkspaceCounters(workspaceVersion, version, openApprovals, apiKeys);
    }

    public WorkspaceCounters plusApprovals(long delta) {
        return new WorkspaceCounters(workspaceVersion, configVersion, Math.max(0, openApprovals + delta), apiKeys);
    }

    public WorkspaceCounters plusApiKeys(long delta) {
        return new WorkspaceCounters(workspaceVersion, configVersion, openApprovals, Math.max(0, apiKeys + delta));
    }
}
