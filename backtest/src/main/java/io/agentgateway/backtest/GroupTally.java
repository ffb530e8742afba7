package io.agentgateway.backtest;

import io.agentgateway.schemas.Decision;
import java.util.ArrayList;
import java.util.List;

/** Evaluated and changed decisions of one group (a tool, an action, an agent), with example audit ids. */
final class GroupTally {
    final TransitionCounts transitions = new TransitionCounts();
    final List<String> examples = new ArrayList<>();
    long evaluated;
    long changed;

    void evaluated() {
        evaluated++;
    }

    void changed(Decision from, Decision to, String auditLogId, int exampleLimit) {
        changed++;
        transitions.add(from, to);
        if (examples.size() < exampleLimit) {
            examples.add(auditLogId);
        }
    }
}
