package io.agentgateway.backtest;

import io.agentgateway.backtest.BacktestReport.Transition;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The report as a table people read in a terminal ({@code Accept: text/plain}, the CLI's default). */
public final class BacktestTable {
    private static final String INDENT = "  ";

    private BacktestTable() {}

    public static String render(BacktestReport report) {
        StringBuilder out = new StringBuilder();
        var totals = report.totals();
        out.append("Back-test of workspace ").append(report.workspaceId()).append('\n')
                .append("Range ").append(report.from()).append(" to ").append(report.to())
                .append(" (to excluded), candidate set of ").append(report.candidatePolicies()).append(" policies\n\n");
        out.append(String.format(Locale.ROOT, "Evaluated %,d   would change %,d   unchanged %,d   reproduction mismatches %,d%n",
                totals.evaluated(), totals.changed(), totals.unchanged(), totals.mismatches()));

        if (report.transitions().isEmpty()) {
            out.append("\nNo decision would change.\n");
        } else {
            out.append("\nChanged decisions (recorded -> candidate)\n");
            TextTable transitions = new TextTable("from", "to", "count#");
            report.transitions().forEach(t -> transitions.row(t.from().wire(), t.to().wire(), t.count()));
            transitions.appendTo(out, INDENT);

            out.append("\nBy tool\n");
            TextTable tools = new TextTable("tool", "evaluated#", "changed#", "transitions", "example audit ids");
            report.byTool().forEach(g -> tools.row(g.tool().wire(), g.evaluated(), g.changed(), transitions(g.transitions()),
                    String.join(" ", g.exampleAuditIds())));
            tools.appendTo(out, INDENT);

            out.append("\nBy action\n");
            TextTable actions = new TextTable("tool", "action", "evaluated#", "changed#", "transitions", "example audit ids");
            report.byAction().forEach(g -> actions.row(g.tool().wire(), g.action(), g.evaluated(), g.changed(),
                    transitions(g.transitions()), String.join(" ", g.exampleAuditIds())));
            actions.appendTo(out, INDENT);

            out.append("\nBy agent\n");
            TextTable agents = new TextTable("agent", "evaluated#", "changed#", "transitions", "example audit ids");
            report.byAgent().forEach(g -> agents.row(g.agentId() == null ? "(none)" : g.agentId(), g.evaluated(), g.changed(),
                    transitions(g.transitions()), String.join(" ", g.exampleAuditIds())));
            agents.appendTo(out, INDENT);
        }

        if (totals.mismatches() > 0) {
            out.append(String.format(Locale.ROOT, "%nREPRODUCTION MISMATCHES: %,d recorded decisions were not reproduced under the "
                    + "policies that were live (a bug; first %d below)%n", totals.mismatches(), report.mismatches().size()));
            TextTable mismatches = new TextTable("audit id", "occurred at", "differs in", "recorded", "replayed");
            report.mismatches().forEach(m -> mismatches.row(m.auditLogId(), m.occurredAt(), String.join(",", m.differences()),
                    outcome(m.recorded()), outcome(m.replayed())));
            mismatches.appendTo(out, INDENT);
        }

        var history = report.history();
        out.append('\n').append(String.format(Locale.ROOT, "Log: %s partition %d, offsets %,d to %,d, %,d records read, %,d events of this "
                        + "workspace replayed, %,d undecodable, %,d duplicates, %,d version gaps%n",
                history.topic() == null ? "(in memory)" : history.topic(), history.partition(), history.startOffset(),
                history.endOffset(), history.recordsRead(), history.workspaceEvents(), history.undecodable(),
                history.duplicates(), history.versionGaps()));
        return out.toString();
    }

    private static String transitions(List<Transition> transitions) {
        return transitions.stream()
                .map(t -> t.from().wire() + "->" + t.to().wire() + " " + t.count())
                .collect(Collectors.joining(", "));
    }

    private static String outcome(BacktestReport.Outcome outcome) {
        return outcome.decision() == null ? "-" : outcome.decision().wire()
                + (outcome.matchedPolicyId() == null ? "" : " (" + outcome.matchedPolicyId() + ")")
                + " [" + (outcome.riskLevel() == null ? "?" : outcome.riskLevel().wire()) + "] " + outcome.reason();
    }
}
