package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expiry index and its stream-time punctuator: approvals of a workspace that sends nothing expire as
 * the partition's stream time passes; revoked and expired keys leave the state a grace period after they
 * ended, with their id entry and their count; nothing is left in the index.
 */
class ExpirySweepTest {
    private static final Duration GRACE = Duration.ofHours(2);

    @TempDir
    Path stateDir;
    private DecisionDriver driver;
    private TestWorkspace workspace;

    @BeforeEach
    void start() {
        driver = new DecisionDriver(DecisionSettings.defaults().withApiKeyGrace(GRACE), stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void the_punctuator_expires_the_approvals_of_a_workspace_that_sends_nothing_more() {
        workspace.admin(new SetWorkspaceDefaults(null, Duration.ofMinutes(5))).ok();
        String approvalId = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).evaluation().approvalRequestId();
        assertThat(driver.expiryIndex()).singleElement().asString().contains(approvalId);

        // another workspace on the same partition moves stream time past the expiry
        TestWorkspace other = TestWorkspace.create(driver);
        other.advance(Duration.ofMinutes(6));
        Emitted elsewhere = other.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW);

        EventEnvelope expiry = elsewhere.events().stream().filter(e -> e.event() instanceof ApprovalExpired).findFirst()
                .orElseThrow();
        assertThat(expiry.workspaceId()).as("the event is the idle workspace's").isEqualTo(workspace.id);
        assertThat(((ApprovalExpired) expiry.event()).approvalId()).isEqualTo(approvalId);
        assertThat(driver.approvals(workspace.id)).isEmpty();
        assertThat(driver.workspaceStates().get(workspace.id).openApprovalCount()).isZero();
        assertThat(driver.expiryIndex()).isEmpty();
    }

    @Test
    void a_revoked_key_leaves_the_state_a_grace_period_after_its_revocation() {
        String keyId = UUID.randomUUID().toString();
        String hash = TestWorkspace.sha256(keyId);
        workspace.admin(new IssueApiKey(keyId, "short-lived", hash, Set.of(Scope.EVALUATE), null)).ok();
        assertThat(driver.expiryIndex()).as("a key that never ends is not indexed").isEmpty();
        workspace.admin(new RevokeApiKey(keyId)).ok();
        assertThat(driver.expiryIndex()).singleElement().asString().contains(hash);
        assertThat(workspace.admin(new RevokeApiKey(keyId)).events()).as("within the grace: revoking again is ok, a no-op")
                .isEmpty();

        workspace.advance(GRACE);
        workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();
        assertThat(driver.apiKeys(workspace.id)).doesNotContainKey(hash).hasSize(1);
        assertThat(driver.workspaceStates().apiKeyIds(workspace.id)).doesNotContainKey(keyId);
        assertThat(driver.workspaceStates().get(workspace.id).apiKeyCount()).isEqualTo(1);
        assertThat(driver.expiryIndex()).isEmpty();
        workspace.admin(new RevokeApiKey(keyId)).refused(ReplyStatus.NOT_FOUND, "API key not found");
    }

    @Test
    void an_expired_key_leaves_the_state_a_grace_period_after_its_expiry_and_answers_as_before_meanwhile() {
        String hash = workspace.issueKey(Set.of(Scope.EVALUATE), workspace.now().plus(Duration.ofMinutes(10)));
        assertThat(driver.expiryIndex()).as("indexed when issued: it ends at its expiry").hasSize(1);

        workspace.advance(Duration.ofMinutes(11));
        workspace.as(workspace.agent(hash), TestWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW).build())
                .refused(ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        assertThat(driver.apiKeys(workspace.id)).containsKey(hash);

        workspace.advance(GRACE);
        workspace.as(workspace.agent(hash), TestWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW).build())
                .refused(ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        assertThat(driver.apiKeys(workspace.id)).doesNotContainKey(hash);
        assertThat(driver.expiryIndex()).isEmpty();
    }
}
