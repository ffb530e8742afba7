package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Spec 4.1 and the tables of spec 4.5, through the topology. One driver serves every row. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RiskClassificationTest {
    DecisionDriver driver;
    TestWorkspace workspace;

    @BeforeAll
    void start(@TempDir Path stateDir) {
        driver = new DecisionDriver(DecisionSettings.defaults(), stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterAll
    void stop() {
        driver.close();
    }

    @ParameterizedTest(name = "{0} {1} is {2}")
    @CsvSource({
        "code_host, read, low",
        "code_host, issues.create, medium",
        "code_host, issues.update, medium",
        "code_host, issues.comment.create, medium",
        "code_host, pull_request.create, high",
        "code_host, pull_request.update, medium",
        "code_host, pull_request.merge, high",
        "code_host, file.write, high",
        "code_host, file.delete, critical",
        "code_host, release.create, high",
        "code_host, ref.delete, critical",
        "code_host, workflow.dispatch, high",
        "issue_tracker, read, low",
        "issue_tracker, issue.create, medium",
        "issue_tracker, issue.update, medium",
        "issue_tracker, issue.delete, high",
        "issue_tracker, comment.create, medium",
        "issue_tracker, project.create, medium",
        "issue_tracker, project.delete, high",
        // outside the tables (DESIGN.md): read-like low, delete-like high, anything else medium
        "code_host, labels.list, low",
        "code_host, repo.get, low",
        "code_host, code.search, low",
        "issue_tracker, cycle.view, low",
        "code_host, label.delete, high",
        "code_host, branch.remove, high",
        "issue_tracker, team.destroy, high",
        "issue_tracker, table.drop, high",
        "code_host, label.create, medium",
        "issue_tracker, attachment.upload, medium",
    })
    void server_side_tools_override_the_supplied_risk(String tool, String action, String expected) {
        RiskLevel expectedLevel = RiskLevel.parse(expected).orElseThrow();
        // supply the opposite end of the scale so an override is always visible
        RiskLevel supplied = expectedLevel.compareTo(RiskLevel.MEDIUM) <= 0 ? RiskLevel.CRITICAL : RiskLevel.LOW;
        Emitted emitted = workspace.evaluate(Tool.parse(tool).orElseThrow(), action, supplied);

        EvaluationOutcome outcome = emitted.evaluation();
        assertThat(outcome.riskLevel()).isEqualTo(expectedLevel);
        assertThat(outcome.riskClassification()).isEqualTo(RiskClassification.SERVER_CLASSIFIED);
        ActionEvaluated audit = emitted.event(0, ActionEvaluated.class);
        assertThat(audit.riskLevel()).isEqualTo(expectedLevel);
        assertThat(audit.suppliedRiskLevel()).isEqualTo(supplied);
        assertThat(audit.riskClassification()).isEqualTo(RiskClassification.SERVER_CLASSIFIED);
    }

    @ParameterizedTest
    @EnumSource(value = Tool.class, names = {"CHAT", "DOCS", "INTERNAL_API", "MCP"})
    void other_tools_take_the_callers_risk(Tool tool) {
        for (RiskLevel supplied : RiskLevel.values()) {
            // file.delete would be critical on the code host; here the caller's word stands
            Emitted emitted = workspace.evaluate(tool, "file.delete", supplied);
            EvaluationOutcome outcome = emitted.evaluation();
            assertThat(outcome.riskLevel()).isEqualTo(supplied);
            assertThat(outcome.riskClassification()).isEqualTo(RiskClassification.CALLER_SUPPLIED);
            assertThat(emitted.event(0, ActionEvaluated.class).suppliedRiskLevel()).isEqualTo(supplied);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Tool.class, names = {"CODE_HOST", "ISSUE_TRACKER"})
    void server_side_tools_need_no_supplied_risk(Tool tool) {
        EvaluationOutcome outcome = workspace.evaluate(tool, "read", null).evaluation();
        assertThat(outcome.riskLevel()).isEqualTo(RiskLevel.LOW);
        assertThat(outcome.riskClassification()).isEqualTo(RiskClassification.SERVER_CLASSIFIED);
    }
}
