package io.agentgateway.decisioncore.condition;

/**
 * Why a condition does not compile: where (1-based line and column of the expression) and what.
 */
public record ConditionProblem(int line, int column, String message) {

    /** E.g. {@code condition: line 1, column 6: undeclared reference to 'foo'}: the admin API's 400 text. */
    public String describe() {
        return "condition: line " + line + ", column " + column + ": " + message;
    }
}
