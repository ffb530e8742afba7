package io.agentgateway.decisioncore.condition;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One condition, compiled (or refused, with its problem). Evaluating never throws: whatever fails (a missing key, a
 * wrong type, the iteration budget, arguments over the size a condition may read, a condition that no longer
 * compiles) is an error value, and the fail-closed rule decides what the policy makes of it.
 */
public final class CompiledCondition {
    private static final Pattern CEL_POSITION = Pattern.compile("^evaluation error at <input>:(\\d+): (.*)$", Pattern.DOTALL);

    private final String expression;
    private final CelRuntime.Program program;
    private final ConditionProblem problem;
    private final boolean readsArguments;

    private CompiledCondition(String expression, CelRuntime.Program program, ConditionProblem problem, boolean readsArguments) {
        this.expression = expression;
        this.program = program;
        this.problem = problem;
        this.readsArguments = readsArguments;
    }

    static CompiledCondition of(String expression, CelRuntime.Program program, boolean readsArguments) {
        return new CompiledCondition(expression, program, null, readsArguments);
    }

    static CompiledCondition refused(String expression, ConditionProblem problem) {
        return new CompiledCondition(expression, null, problem, false);
    }

    public String expression() {
        return expression;
    }

    public Optional<ConditionProblem> problem() {
        return Optional.ofNullable(problem);
    }

    /** Whether the condition reads {@code args} (then arguments it may not read make it fail). */
    public boolean readsArguments() {
        return readsArguments;
    }

    public ConditionValue evaluate(ConditionScope scope) {
        if (problem != null) {
            return ConditionValue.error("the condition does not compile: " + problem.describe());
        }
        if (readsArguments) {
            String unreadable = scope.argumentsProblem();
            if (unreadable != null) {
                return ConditionValue.error(unreadable);
            }
        }
        try {
            Object result = program.eval(scope);
            if (result instanceof Boolean value) {
                return ConditionValue.of(value);
            }
            return ConditionValue.error("the condition gave " + (result == null ? "null" : result.getClass().getSimpleName())
                    + ", not a bool");
        } catch (CelEvaluationException e) {
            return ConditionValue.error(message(e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            // a failure inside the interpreter is still this condition's failure: never an allow
            return ConditionValue.error("evaluation failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    /** CEL's {@code evaluation error at <input>:7: ...} as {@code at position 8: ...} (1-based, as the 400s say). */
    private static String message(String celMessage) {
        if (celMessage == null) {
            return "evaluation failed";
        }
        Matcher m = CEL_POSITION.matcher(celMessage);
        String text = m.matches() ? "at position " + (Integer.parseInt(m.group(1)) + 1) + ": " + m.group(2) : celMessage;
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    @Override
    public String toString() {
        return "CompiledCondition[" + expression + (problem == null ? "" : ", " + problem.describe()) + "]";
    }
}
