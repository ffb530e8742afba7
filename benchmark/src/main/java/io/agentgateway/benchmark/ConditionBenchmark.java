package io.agentgateway.benchmark;

import io.agentgateway.decisioncore.condition.ActionFacts;
import io.agentgateway.decisioncore.condition.CompiledCondition;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionInput;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.decisioncore.condition.ConditionScope;
import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Policy conditions alone, in this JVM (no gateway): the median time of one evaluation of typical conditions on a
 * warm JVM (each on a fresh scope, so the variables are built as a decision builds them), the time to compile a
 * condition (cold: the first in the JVM; warm: the median of distinct ones), and one decision's policy evaluation in
 * a workspace of 100 conditional policies (all reached, all false) against one of 100 plain policies (all passed
 * over by their lists).
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests
 * java -cp benchmark/target/benchmark.jar -Dloader.main=io.agentgateway.benchmark.ConditionBenchmark \
 *     org.springframework.boot.loader.launch.PropertiesLauncher
 * </pre>
 * Options: {@code bench.conditionIterations} (evaluations measured per condition, default 200,000),
 * {@code bench.conditionWarmup} (default 300,000).
 */
public final class ConditionBenchmark {
    static final List<String> TYPICAL = List.of(
            "target.path.startsWith('.github/workflows/')",
            "target.repository in ['acme/api', 'acme/payments'] && target.branch == 'main'",
            "!('deletable' in target.labels)",
            "!(args.channel in ['C-ENG', 'C-OPS'])",
            "args.amount > 1000",
            "!(time.weekday in ['saturday', 'sunday']) && time.hour >= 9 && time.hour < 18");

    private ConditionBenchmark() {}

    public static void main(String[] args) {
        int iterations = Integer.getInteger("bench.conditionIterations", 200_000);
        int warmup = Integer.getInteger("bench.conditionWarmup", 300_000);
        System.out.printf(Locale.ROOT, "policy conditions, %s, %d cores; %,d evaluations per condition after %,d of warm-up%n",
                System.getProperty("java.vm.name") + " " + Runtime.version(), Runtime.getRuntime().availableProcessors(),
                iterations, warmup);

        long coldStart = System.nanoTime();
        ConditionEnvironment environment = ConditionEnvironment.of(ConditionLimits.defaults());
        double environmentMs = (System.nanoTime() - coldStart) / 1e6;
        long firstStart = System.nanoTime();
        CompiledCondition first = environment.compile(TYPICAL.get(0));
        double coldMs = (System.nanoTime() - firstStart) / 1e6;
        requireCompiled(first);

        ConditionInput input = input();
        List<CompiledCondition> compiled = TYPICAL.stream().map(environment::compile).peek(ConditionBenchmark::requireCompiled).toList();
        System.out.printf(Locale.ROOT, "%n| condition | median ns | p99 ns | value |%n|---|---|---|---|%n");
        long[] medians = new long[compiled.size()];
        for (int c = 0; c < compiled.size(); c++) {
            CompiledCondition condition = compiled.get(c);
            for (int i = 0; i < warmup; i++) {
                condition.evaluate(new ConditionScope(input, environment.limits()));
            }
            long[] ns = new long[iterations];
            String value = null;
            for (int i = 0; i < iterations; i++) {
                long start = System.nanoTime();
                var result = condition.evaluate(new ConditionScope(input, environment.limits()));
                ns[i] = System.nanoTime() - start;
                value = result.toString();
            }
            Arrays.sort(ns);
            medians[c] = ns[ns.length / 2];
            System.out.printf(Locale.ROOT, "| `%s` | %,d | %,d | %s |%n", condition.expression(), ns[ns.length / 2],
                    ns[(int) (ns.length * 0.99)], value);
        }
        Arrays.sort(medians);
        System.out.printf(Locale.ROOT, "%nmedian of the typical conditions' medians: %,d ns (target <= 5,000 ns)%n", medians[medians.length / 2]);

        // compiling: distinct expressions, so that none comes from the kept programs
        for (int i = 0; i < 200; i++) {
            environment.compile("args.warm" + i + " > " + i + " && target.branch == 'main'");
        }
        long[] compileNs = new long[200];
        for (int i = 0; i < compileNs.length; i++) {
            String expression = "args.amount" + i + " > " + i + " && target.repository in ['acme/api'] && time.hour < 18";
            long start = System.nanoTime();
            requireCompiled(environment.compile(expression));
            compileNs[i] = System.nanoTime() - start;
        }
        Arrays.sort(compileNs);
        System.out.printf(Locale.ROOT, "compile: the environment once per process %.1f ms (CEL's classes load there, at start),"
                + " the first condition after it %.1f ms, then median %.2f ms, max %.2f ms (target <= 100 ms)%n", environmentMs,
                coldMs, compileNs[compileNs.length / 2] / 1e6, compileNs[compileNs.length - 1] / 1e6);

        workspaceOfHundred(iterations, warmup);
    }

    /** One decision's policy evaluation: 100 conditional policies reached and false, against 100 plain ones passed over. */
    private static void workspaceOfHundred(int iterations, int warmup) {
        DecisionCore core = new DecisionCore(DecisionSettings.defaults());
        WorkspaceState conditional = WorkspaceState.absent(Duration.ofHours(24)).withPolicySet(policies(true));
        WorkspaceState plain = WorkspaceState.absent(Duration.ofHours(24)).withPolicySet(policies(false));
        ActionRequest request = new ActionRequest(Tool.CHAT, "message.send", RiskLevel.LOW, "bench-agent", null, null,
                ActionSource.EVALUATE, AgentIdentity.ASSERTED, new ActionFacts(GatewayJson.MAPPER.readTree(
                        "{\"channel\":\"#ops\",\"text\":\"hello\"}"), null, null, null, null, null, null,
                        Instant.parse("2026-01-05T10:00:00Z")));
        for (WorkspaceState state : List.of(conditional, plain, conditional, plain)) {
            for (int i = 0; i < warmup / 10; i++) {
                core.verdict(state, request);
            }
        }
        double withConditions = perDecisionNs(core, conditional, request, iterations / 10);
        double without = perDecisionNs(core, plain, request, iterations / 10);
        System.out.printf(Locale.ROOT, "%nworkspace of 100 policies on the tool, one decision's policy evaluation (mean): "
                + "100 conditions reached and false %,.0f ns; 100 plain policies passed over by their lists %,.0f ns;"
                + " decision: %s%n", withConditions, without, core.verdict(conditional, request).decision().wire());
    }

    private static double perDecisionNs(DecisionCore core, WorkspaceState state, ActionRequest request, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            core.verdict(state, request);
        }
        return (System.nanoTime() - start) / (double) count;
    }

    /**
     * 100 policies on chat: conditional ones match the benchmark's action by their lists and their conditions are
     * false for it; plain ones name another action, so their lists pass them over.
     */
    static List<Policy> policies(boolean conditional) {
        List<Policy> policies = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            PolicyMatch match = new PolicyMatch(Set.of(Tool.CHAT), List.of(conditional ? "message.send" : "message.delete" + i),
                    Set.of(), List.of(), List.of(), List.of(), Set.of());
            policies.add(new Policy(new UUID(0, i + 1).toString(), "policy " + i, i, true, Decision.BLOCK, match, null,
                    conditional ? condition(i) : null));
        }
        return policies;
    }

    /** A typical condition, false for the benchmark's chat message (channel #ops, text hello). */
    public static String condition(int i) {
        return switch (i % 4) {
            case 0 -> "args.channel == '#external-" + i + "'";
            case 1 -> "args.text.contains('password-" + i + "')";
            case 2 -> "has(args.attachments) && args.attachments.size() > " + i;
            default -> "agent.id.startsWith('intern-" + i + "') && time.hour >= 18";
        };
    }

    private static ConditionInput input() {
        return new ConditionInput(Tool.CODE_HOST, "file.write", RiskLevel.HIGH, ActionSource.PROXY, "bench-agent",
                AgentIdentity.BOUND, "repository", "acme/api",
                new ActionFacts(GatewayJson.MAPPER.readTree("{\"channel\":\"C-PARTNER\",\"amount\":1500,\"message\":\"ci\"}"),
                        null, new RequestFacts("PUT", List.of("repos", "acme", "api", "contents", ".github", "workflows", "ci.yml"),
                        Map.of(), null, null),
                        new TargetFacts("acme", "api", "refs/heads/main", ".github/./workflows/ci.yml", null, null, List.of("bug")),
                        null, "alice", "Bench", Instant.parse("2026-01-05T10:00:00Z")),
                ZoneId.of("Europe/Berlin"));
    }

    private static void requireCompiled(CompiledCondition condition) {
        condition.problem().ifPresent(problem -> {
            throw new IllegalStateException(condition.expression() + ": " + problem.describe());
        });
    }
}
