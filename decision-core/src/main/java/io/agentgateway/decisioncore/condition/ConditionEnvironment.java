package io.agentgateway.decisioncore.condition;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.agentgateway.schemas.Policy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Policy conditions in CEL (cel-java): the declared variables and helpers, the limits, and the compiled programs.
 * A condition is parsed and type-checked once (when its policy is created or replaced, and after a restart when its
 * policy set is first used), never per decision: programs are kept here by expression text, and a policy set links
 * its programs once ({@code PolicySet.conditions}).
 *
 * <p>Variables (docs/policies.md): {@code tool}, {@code action}, {@code risk}, {@code source} (strings),
 * {@code requestedBy} (a string or null), and maps {@code agent}, {@code resource}, {@code request}, {@code target},
 * {@code time}; {@code args} (any JSON value). Helpers: {@code normalizePath(string)} and {@code normalizeBranch(string)},
 * the gateway's own normalization of {@code target}, for arguments of tools without a target shape (MCP).
 * Limits are CEL's own where it has them: the expression's length ({@code maxExpressionCodePointSize}), nesting
 * ({@code maxParseRecursionDepth}) and comprehension iterations per evaluation ({@code comprehensionMaxIterations});
 * RE2 regular expressions (linear time) of bounded program size. The size of {@code args} is checked here.
 * Integers and doubles compare with each other ({@code enableHeterogeneousNumericComparisons}); strings never
 * compare with numbers.
 *
 * <p>Thread-safe; one per {@link ConditionLimits} ({@link #of}), shared by every decision core with those limits.
 */
public final class ConditionEnvironment {
    /** Distinct conditions kept compiled per environment (a workspace holds at most its policy limit). */
    static final int MAX_PROGRAMS = 20_000;
    private static final Map<ConditionLimits, ConditionEnvironment> BY_LIMITS = new ConcurrentHashMap<>();
    private static final CelType OBJECT = MapType.create(SimpleType.STRING, SimpleType.DYN);
    static final String NORMALIZE_PATH = "normalizePath";
    static final String NORMALIZE_BRANCH = "normalizeBranch";

    private final ConditionLimits limits;
    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final Map<String, CompiledCondition> programs = new LinkedHashMap<>(256, 0.75f, true);

    private ConditionEnvironment(ConditionLimits limits) {
        this.limits = limits;
        CelOptions options = CelOptions.current()
                .enableHeterogeneousNumericComparisons(true)
                .maxExpressionCodePointSize(limits.maxExpressionChars())
                .maxParseRecursionDepth(limits.maxNesting())
                .comprehensionMaxIterations(limits.maxIterations())
                .maxRegexProgramSize(1_000)
                .build();
        this.compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addVar("tool", SimpleType.STRING)
                .addVar("action", SimpleType.STRING)
                .addVar("risk", SimpleType.STRING)
                .addVar("source", SimpleType.STRING)
                .addVar("requestedBy", SimpleType.DYN)
                .addVar("agent", OBJECT)
                .addVar("resource", OBJECT)
                .addVar("args", SimpleType.DYN)
                .addVar("request", OBJECT)
                .addVar("target", OBJECT)
                .addVar("time", OBJECT)
                .addFunctionDeclarations(
                        CelFunctionDecl.newFunctionDeclaration(NORMALIZE_PATH,
                                CelOverloadDecl.newGlobalOverload("normalize_path_string", SimpleType.STRING, SimpleType.STRING)),
                        CelFunctionDecl.newFunctionDeclaration(NORMALIZE_BRANCH,
                                CelOverloadDecl.newGlobalOverload("normalize_branch_string", SimpleType.STRING, SimpleType.STRING)))
                .setResultType(SimpleType.BOOL)
                .build();
        this.runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(options)
                .addFunctionBindings(
                        CelFunctionBinding.from("normalize_path_string", String.class, Targets::normalizePath),
                        CelFunctionBinding.from("normalize_branch_string", String.class, Targets::normalizeBranch))
                .build();
        // the parser's, checker's and interpreter's classes load here, once per process (over a second on a busy
        // machine), rather than in the first policy an admin writes or the first decision after a restart
        compileNew(WARM_UP).evaluate(new ConditionScope(new ConditionInput(null, "warm-up", null, null, null, null, null,
                null, null, null), limits));
    }

    private static final String WARM_UP = "action.startsWith('warm') && has(args.x) && args.x > 1 && [1].exists(i, i > 0)";

    /** The environment of {@code limits}, shared process-wide (its compiled programs with it). */
    public static ConditionEnvironment of(ConditionLimits limits) {
        return BY_LIMITS.computeIfAbsent(limits, ConditionEnvironment::new);
    }

    public ConditionLimits limits() {
        return limits;
    }

    /** Why {@code expression} would be refused as a policy's condition, or empty when it compiles. */
    public Optional<ConditionProblem> check(String expression) {
        return compile(expression).problem();
    }

    /** The compiled condition (or why it does not compile), from the programs already compiled when it is one. */
    public CompiledCondition compile(String expression) {
        synchronized (programs) {
            CompiledCondition known = programs.get(expression);
            if (known != null) {
                return known;
            }
        }
        CompiledCondition compiled = compileNew(expression);
        synchronized (programs) {
            programs.put(expression, compiled);
            if (programs.size() > MAX_PROGRAMS) {
                programs.remove(programs.keySet().iterator().next());
            }
        }
        return compiled;
    }

    /** Compiled programs of every conditional policy among {@code policies}, by policy id. */
    public Map<String, CompiledCondition> compileAll(List<Policy> policies) {
        Map<String, CompiledCondition> byPolicy = new LinkedHashMap<>();
        for (Policy policy : policies) {
            if (policy.hasCondition()) {
                byPolicy.put(policy.id(), compile(policy.condition()));
            }
        }
        return Map.copyOf(byPolicy);
    }

    private CompiledCondition compileNew(String expression) {
        if (expression == null || expression.isBlank()) {
            return CompiledCondition.refused(expression, new ConditionProblem(1, 1, "the condition is empty"));
        }
        int chars = expression.codePointCount(0, expression.length());
        if (chars > limits.maxExpressionChars()) {
            return CompiledCondition.refused(expression, new ConditionProblem(1, 1, "the condition is " + chars
                    + " characters, over the limit of " + limits.maxExpressionChars()
                    + " (gateway.decision.conditions.max-expression-chars)"));
        }
        CelValidationResult result;
        try {
            result = compiler.compile(expression);
        } catch (RuntimeException e) {
            return CompiledCondition.refused(expression, new ConditionProblem(1, 1, "the condition cannot be parsed: " + e.getMessage()));
        }
        if (result.hasError()) {
            CelIssue first = result.getErrors().get(0);
            int line = Math.max(1, first.getSourceLocation().getLine());
            int column = Math.max(0, first.getSourceLocation().getColumn()) + 1;
            return CompiledCondition.refused(expression, new ConditionProblem(line, column, first.getMessage()));
        }
        try {
            var ast = result.getAst();
            boolean readsArgs = ast.getReferenceMap().values().stream().map(CelReference::name).anyMatch("args"::equals);
            return CompiledCondition.of(expression, runtime.createProgram(ast), readsArgs);
        } catch (dev.cel.common.CelValidationException | CelEvaluationException | RuntimeException e) {
            return CompiledCondition.refused(expression, new ConditionProblem(1, 1, "the condition cannot be planned: " + e.getMessage()));
        }
    }
}
