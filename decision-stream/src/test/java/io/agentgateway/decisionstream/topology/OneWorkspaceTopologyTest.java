package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.core.DecisionSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topology test of one workspace under the default settings: a fresh {@link DecisionDriver} (its own state
 * directory) and {@link TestWorkspace} before each test, closed after it. A subclass's own {@code @BeforeEach}
 * runs after this one's, so it can set the workspace up further.
 */
abstract class OneWorkspaceTopologyTest {
    @TempDir
    Path stateDir;
    DecisionDriver driver;
    TestWorkspace workspace;

    @BeforeEach
    void startDriverAndWorkspace() {
        driver = new DecisionDriver(DecisionSettings.defaults(), stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }
}
