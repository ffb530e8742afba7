package io.agentgateway.decisioncore.condition;

/**
 * What a condition evaluated to for one action: true, false, or an error (then {@code error} says what failed and
 * the fail-closed rule decides what the policy makes of it).
 */
public record ConditionValue(boolean value, String error) {
    public static final ConditionValue TRUE = new ConditionValue(true, null);
    public static final ConditionValue FALSE = new ConditionValue(false, null);
    /** The longest error text kept (an audit row carries it). */
    static final int MAX_ERROR_CHARS = 400;

    public static ConditionValue of(boolean value) {
        return value ? TRUE : FALSE;
    }

    public static ConditionValue error(String error) {
        String text = error == null || error.isBlank() ? "evaluation failed" : error;
        return new ConditionValue(false, text.length() <= MAX_ERROR_CHARS ? text : text.substring(0, MAX_ERROR_CHARS) + "…");
    }

    public boolean failed() {
        return error != null;
    }

    public boolean isTrue() {
        return error == null && value;
    }

    /** {@code true}, {@code false} or {@code error: ...}, as the policy test answers it. */
    @Override
    public String toString() {
        return error != null ? "error: " + error : Boolean.toString(value);
    }
}
