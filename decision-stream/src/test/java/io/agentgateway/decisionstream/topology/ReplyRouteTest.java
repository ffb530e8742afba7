package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reply taken by the {@link ReplyRoute} (a caller in the same process) is not written to the replies topic;
 * the decision, its events and its state change are exactly what they are without it.
 */
class ReplyRouteTest {
    @TempDir
    Path stateDir;

    @Test
    void aReplyTakenInProcessWritesNoReplyRecordAndChangesNothingElse() {
        List<Reply> takenInProcess = new ArrayList<>();
        ReplyRoute takeEvaluations = reply -> reply.evaluation() != null && takenInProcess.add(reply);
        try (DecisionDriver driver = new DecisionDriver(DecisionSettings.defaults(), stateDir,
                ProcessingGuarantee.AT_LEAST_ONCE, takeEvaluations)) {
            TestWorkspace workspace = TestWorkspace.create(driver); // admin replies are declined: written as records

            Emitted evaluated = workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW);

            assertThat(evaluated.replies()).isEmpty();
            assertThat(takenInProcess).hasSize(1);
            Reply reply = takenInProcess.get(0);
            assertThat(reply.evaluation().decision()).isEqualTo(Decision.ALLOW);
            assertThat(reply.replyPartition()).isEqualTo(TestWorkspace.REPLY_PARTITION);
            ActionEvaluated event = evaluated.only(ActionEvaluated.class);
            assertThat(event.decision()).isEqualTo(Decision.ALLOW);
            assertThat(reply.evaluation().auditLogId()).isEqualTo(event.auditLogId());
        }
    }
}
