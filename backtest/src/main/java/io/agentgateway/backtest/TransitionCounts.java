package io.agentgateway.backtest;

import io.agentgateway.backtest.BacktestReport.Transition;
import io.agentgateway.schemas.Decision;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Counts of (recorded → candidate) decision pairs: a small matrix, cheap enough to keep per group. */
final class TransitionCounts {
    private static final Decision[] DECISIONS = Decision.values();
    private final long[][] counts = new long[DECISIONS.length][DECISIONS.length];

    void add(Decision from, Decision to) {
        counts[from.ordinal()][to.ordinal()]++;
    }

    /** The pairs seen, most frequent first (ties in decision order, so the output is stable). */
    List<Transition> toList() {
        List<Transition> transitions = new ArrayList<>();
        for (Decision from : DECISIONS) {
            for (Decision to : DECISIONS) {
                long count = counts[from.ordinal()][to.ordinal()];
                if (count > 0) {
                    transitions.add(new Transition(from, to, count));
                }
            }
        }
        transitions.sort(Comparator.comparingLong(Transition::count).reversed());
        return transitions;
    }
}
