package io.agentgateway.classification;

import io.agentgateway.schemas.RiskLevel;
import java.util.Map;

/**
 * Spec 4.5's risk tables, by action string: the profiles of the tools whose risk the gateway classifies on the
 * server name theirs ({@link ToolProfile#riskTable()}); {@link RiskClassifier} reads them there.
 */
final class RiskTables {
    static final Map<String, RiskLevel> CODE_HOST = Map.ofEntries(
            Map.entry("read", RiskLevel.LOW),
            Map.entry("issues.create", RiskLevel.MEDIUM),
            Map.entry("issues.update", RiskLevel.MEDIUM),
            Map.entry("issues.comment.create", RiskLevel.MEDIUM),
            Map.entry("pull_request.create", RiskLevel.HIGH),
            Map.entry("pull_request.update", RiskLevel.MEDIUM),
            Map.entry("pull_request.merge", RiskLevel.HIGH),
            Map.entry("file.write", RiskLevel.HIGH),
            Map.entry("file.delete", RiskLevel.CRITICAL),
            Map.entry("release.create", RiskLevel.HIGH),
            Map.entry("ref.delete", RiskLevel.CRITICAL),
            Map.entry("workflow.dispatch", RiskLevel.HIGH));

    static final Map<String, RiskLevel> ISSUE_TRACKER = Map.ofEntries(
            Map.entry("read", RiskLevel.LOW),
            Map.entry("issue.create", RiskLevel.MEDIUM),
            Map.entry("issue.update", RiskLevel.MEDIUM),
            Map.entry("issue.delete", RiskLevel.HIGH),
            Map.entry("comment.create", RiskLevel.MEDIUM),
            Map.entry("project.create", RiskLevel.MEDIUM),
            Map.entry("project.delete", RiskLevel.HIGH));

    private RiskTables() {}
}
