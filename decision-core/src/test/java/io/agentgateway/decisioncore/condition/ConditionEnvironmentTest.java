package io.agentgateway.decisioncore.condition;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Conditions compiled and evaluated alone: what compiles (and the position and problem of what does not), the
 * variables, numbers, missing keys, the limits, and that every failure is an error value, never an exception.
 */
class ConditionEnvironmentTest {
    private static final Instant MONDAY_0930_UTC = Instant.parse("2026-01-05T09:30:00Z");
    private final ConditionEnvironment environment = ConditionEnvironment.of(ConditionLimits.defaults());

    private static JsonNode json(String text) {
        return GatewayJson.MAPPER.readTree(text);
    }

    private static ConditionInput input(String args) {
        return input(Tool.MCP, "transfer_funds", ActionSource.MCP, args == null ? null : json(args), null, null, null);
    }

    private static ConditionInput input(Tool tool, String action, ActionSource source, JsonNode args, RequestFacts request,
                                        TargetFacts target, ZoneId zone) {
        return new ConditionInput(tool, action, RiskLevel.HIGH, source, "agent-7", AgentIdentity.BOUND, "repository",
                "acme/api", new ActionFacts(args, null, request, target, null, "alice", "Agent Seven", MONDAY_0930_UTC), zone);
    }

    private ConditionValue eval(String expression, ConditionInput input) {
        CompiledCondition compiled = environment.compile(expression);
        assertThat(compiled.problem()).as(expression).isEmpty();
        return compiled.evaluate(new ConditionScope(input, environment.limits()));
    }

    @Test
    void a_condition_that_does_not_compile_names_its_line_column_and_problem() {
        assertThat(environment.check("tool == 1")).hasValueSatisfying(p -> {
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.column()).isEqualTo(6);
            assertThat(p.message()).contains("no matching overload");
            assertThat(p.describe()).startsWith("condition: line 1, column 6: ");
        });
        assertThat(environment.check("args.amount >")).hasValueSatisfying(p -> assertThat(p.column()).isEqualTo(14));
        assertThat(environment.check("tool == 'mcp' &&\n  undeclared.x == 1")).hasValueSatisfying(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.column()).isEqualTo(3);
            assertThat(p.message()).contains("undeclared reference to 'undeclared'");
        });
        assertThat(environment.check("tool")).as("a condition is a bool")
                .hasValueSatisfying(p -> assertThat(p.message()).contains("bool"));
        // args is any JSON value: a condition that is only args is checked when it runs
        assertThat(environment.compile("args.amount").evaluate(new ConditionScope(input("{\"amount\":1}"), environment.limits())).error())
                .isEqualTo("the condition gave Long, not a bool");
        assertThat(environment.check(" ")).hasValueSatisfying(p -> assertThat(p.message()).isEqualTo("the condition is empty"));
        assertThat(environment.check("args.amount > 1000 && normalizePath(args.path).startsWith('.github/')")).isEmpty();
    }

    @Test
    void the_expression_length_and_nesting_are_bounded_when_the_policy_is_written() {
        String tooLong = "action == '" + "x".repeat(ConditionLimits.DEFAULT_MAX_EXPRESSION_CHARS) + "'";
        assertThat(environment.check(tooLong)).hasValueSatisfying(p -> assertThat(p.message())
                .contains("over the limit of 4096 (gateway.decision.conditions.max-expression-chars)"));
        String deep = "(".repeat(60) + "true" + ")".repeat(60);
        assertThat(environment.check(deep)).hasValueSatisfying(p -> assertThat(p.message()).contains("recursion limit"));
        // a long flat chain of alternatives is not deep
        String chain = IntStream.range(0, 40).mapToObj(i -> "action == 'a" + i + "'").collect(Collectors.joining(" || "));
        assertThat(environment.check(chain)).isEmpty();
    }

    @Test
    void numbers_compare_as_numbers_whatever_their_json_form_and_a_string_is_never_a_number() {
        assertThat(eval("args.amount > 1000", input("{\"amount\":1500}"))).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("args.amount > 1000", input("{\"amount\":1500.0}"))).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("args.amount > 1000", input("{\"amount\":1e3}"))).isEqualTo(ConditionValue.FALSE);
        assertThat(eval("args.amount > 1000", input("{\"amount\":123456789012345678901234567890}"))).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("args.amount > 1000.5", input("{\"amount\":1001}"))).isEqualTo(ConditionValue.TRUE);
        ConditionValue asString = eval("args.amount > 1000", input("{\"amount\":\"1500\"}"));
        assertThat(asString.failed()).isTrue();
        assertThat(asString.error()).startsWith("at position 13: No matching overload for function '_>_'");
    }

    @Test
    void a_missing_key_fails_and_has_tests_for_it() {
        ConditionValue missing = eval("args.amount > 1000", input("{\"currency\":\"EUR\"}"));
        assertThat(missing.failed()).isTrue();
        assertThat(missing.error()).isEqualTo("at position 5: key 'amount' is not present in map");
        assertThat(eval("has(args.amount) && args.amount > 1000", input("{\"currency\":\"EUR\"}"))).isEqualTo(ConditionValue.FALSE);
        assertThat(eval("args.amount > 1000", input(null)).failed()).as("no arguments at all").isTrue();
        assertThat(eval("args.nested.deeper.value == 1", input("{\"nested\":{\"deeper\":{\"value\":1}}}"))).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("args.items.exists(i, i.sku == 'x')", input("{\"items\":[{\"sku\":\"y\"},{\"sku\":\"x\"}]}")))
                .isEqualTo(ConditionValue.TRUE);
        assertThat(eval("args.note == null", input("{\"note\":null}"))).isEqualTo(ConditionValue.TRUE);
    }

    @Test
    void every_variable_reads_as_documented() {
        ConditionInput input = input(Tool.CODE_HOST, "file.write", ActionSource.PROXY, json("{\"branch\":\"main\"}"),
                new RequestFacts("PUT", List.of("repos", "Acme", "API", "contents", ".github", "workflows", "x.yml"),
                        Map.of("ref", List.of("dev", "main")), null, null),
                new TargetFacts("Acme", "API", "refs/heads/Main", ".GitHub//Workflows/./x.yml", null, null, null),
                ZoneId.of("Europe/Berlin"));
        assertThat(eval("tool == 'code_host' && action == 'file.write' && risk == 'high' && source == 'proxy'", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("agent.id == 'agent-7' && agent.name == 'Agent Seven' && agent.bound", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("resource.type == 'repository' && resource.id == 'acme/api' && requestedBy == 'alice'", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("request.method == 'PUT' && request.path[3] == 'contents' && request.query.ref == ['dev', 'main']", input))
                .isEqualTo(ConditionValue.TRUE);
        assertThat(eval("target.owner == 'acme' && target.repo == 'api' && target.repository == 'acme/api'"
                + " && target.branch == 'main' && target.path == '.github/workflows/x.yml'", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("!has(target.team) && !has(request.operationName)", input)).isEqualTo(ConditionValue.TRUE);
        // 09:30 UTC is 10:30 in Berlin, a Monday
        assertThat(eval("time.hour == 10 && time.minute == 30 && time.weekday == 'monday' && time.isoWeekday == 1"
                + " && time.date == '2026-01-05' && time.zone == 'Europe/Berlin'", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("time.timestamp == timestamp('2026-01-05T09:30:00Z')", input)).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("request.method == 'PUT'", input("{}")).failed()).as("no request outside the proxy").isTrue();
        assertThat(eval("requestedBy == null", new ConditionInput(Tool.MCP, "x", RiskLevel.LOW, ActionSource.MCP, null, null,
                null, null, null, null))).isEqualTo(ConditionValue.TRUE);
    }

    @Test
    void comprehensions_share_one_iteration_budget_per_evaluation() {
        String thousand = IntStream.range(0, 1001).mapToObj(Integer::toString).collect(Collectors.joining(",", "{\"items\":[", "]}"));
        ConditionValue value = eval("args.items.exists(i, i == -1)", input(thousand));
        assertThat(value.failed()).isTrue();
        assertThat(value.error()).contains("Iteration budget exceeded: 1000");
        String half = IntStream.range(0, 600).mapToObj(Integer::toString).collect(Collectors.joining(",", "{\"a\":[", "]"))
                + IntStream.range(0, 600).mapToObj(Integer::toString).collect(Collectors.joining(",", ",\"b\":[", "]}"));
        assertThat(eval("args.a.exists(i, i == -1) || args.b.exists(i, i == -1)", input(half)).failed()).isTrue();
    }

    @Test
    void arguments_over_the_size_a_condition_may_read_fail_a_condition_that_reads_them_and_only_such_a_one() {
        ConditionEnvironment small = ConditionEnvironment.of(ConditionLimits.defaults().withMaxArgumentsBytes(100));
        ConditionInput padded = input("{\"amount\":5,\"padding\":\"" + "x".repeat(200) + "\"}");
        ConditionValue reading = small.compile("args.amount > 1000").evaluate(new ConditionScope(padded, small.limits()));
        assertThat(reading.failed()).isTrue();
        assertThat(reading.error()).isEqualTo("args are 225 bytes, over the 100 a condition may read"
                + " (gateway.decision.conditions.max-arguments-bytes)");
        assertThat(small.compile("args.amount > 1000").readsArguments()).isTrue();
        assertThat(small.compile("action == 'transfer_funds'").evaluate(new ConditionScope(padded, small.limits())))
                .isEqualTo(ConditionValue.TRUE);
        ConditionInput notCarried = new ConditionInput(Tool.MCP, "transfer_funds", RiskLevel.HIGH, ActionSource.MCP, null, null,
                null, null, new ActionFacts(null, "args were not carried", null, null, null, null, null, null), null);
        assertThat(environment.compile("has(args.amount)").evaluate(new ConditionScope(notCarried, environment.limits())).error())
                .isEqualTo("args were not carried");
    }

    @Test
    void the_normalization_helpers_apply_the_target_rules_to_any_string() {
        assertThat(eval("normalizePath(args.path).startsWith('.github/workflows/')",
                input("{\"path\":\".GITHUB/./workflows//x.yml\"}"))).isEqualTo(ConditionValue.TRUE);
        assertThat(eval("normalizeBranch(args.ref) == 'main'", input("{\"ref\":\"refs/heads/main\"}"))).isEqualTo(ConditionValue.TRUE);
    }

    @Test
    void a_condition_is_compiled_once_per_text() {
        assertThat(environment.compile("args.amount > 7")).isSameAs(environment.compile("args.amount > 7"));
        assertThat(ConditionEnvironment.of(ConditionLimits.defaults())).isSameAs(environment);
    }
}
