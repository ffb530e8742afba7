package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.RiskLevel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Which tools of an MCP {@code tools/list} the workspace blocks outright, so that the gate does not offer them:
 * those a {@code tools/call} would
 * be blocked for whatever its arguments. Decided with the very {@link RiskClassifier} and {@link ActionDecider} a
 * {@code tools/call} is decided with, on the action request that call would make (tool and action the listing's tool
 * and the tool's name, the listing's agent, identity and source, no resource: the gate's tools/call names none), so
 * a tool listed is never one whose call the same state blocks.
 *
 * <p>What the arguments can change is the risk level: {@code arguments._risk} sets any of the four. A tool is
 * blocked outright only when the call is blocked at every level; a policy that blocks a tool only at some levels (or
 * only for some resources, which a tools/call never names) does not hide it, and neither does require_approval,
 * nor a conditional policy that could allow or hold it (its condition reads arguments the listing does not have).
 */
public final class OutrightBlocks {
    private final RiskClassifier classifier;
    private final ActionDecider decider;

    public OutrightBlocks(RiskClassifier classifier, ActionDecider decider) {
        this.classifier = classifier;
        this.decider = decider;
    }

    /**
     * @param listing the tools/list's own action request (its tool, agent, identity and source are the calls')
     * @param names   the listed tools' names
     * @return the names of {@code names} (each once, in their order) whose call {@code state} blocks whatever the
     *         call's arguments
     */
    public List<String> hidden(WorkspaceState state, ActionRequest listing, List<String> names) {
        List<String> hidden = new ArrayList<>();
        for (String name : new LinkedHashSet<>(names)) {
            if (blockedAtEveryRisk(state, listing, name)) {
                hidden.add(name);
            }
        }
        return hidden;
    }

    private boolean blockedAtEveryRisk(WorkspaceState state, ActionRequest listing, String name) {
        for (RiskLevel supplied : RiskLevel.values()) {
            // the level the call's evaluation would see when its caller supplies this one (server-classified tools
            // ignore it: then every pass sees the same level)
            Optional<ClassifiedRisk> risk = classifier.classify(listing.tool(), name, supplied);
            if (risk.isEmpty()) {
                return false;
            }
            ActionRequest call = new ActionRequest(listing.tool(), name, risk.get().level(), listing.agentId(), null, null,
                    listing.source(), listing.agentIdentity());
            // the call's arguments are not known here: a policy whose condition might go either way cannot hide it
            if (!decider.blockedWhateverTheConditions(state, call)) {
                return false; // most tools: allowed at the first level tried, one decision each
            }
        }
        return true;
    }
}
