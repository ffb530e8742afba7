package io.agentgateway.decisioncore.condition;

/**
 * The bounds of policy conditions ({@code gateway.decision.conditions.*}). Part of the decision's pure function: the
 * same log with the same limits decides the same, so the stream, the back-test and the admin API's policy test must
 * be given the same values.
 *
 * @param maxExpressionChars the longest condition accepted, in characters (a longer one is refused when the policy
 *                           is created or replaced); also CEL's {@code maxExpressionCodePointSize}
 * @param maxNesting         how deeply a condition may nest (CEL's parser recursion limit, {@code maxParseRecursionDepth})
 * @param maxIterations      the iterations all comprehensions ({@code all}, {@code exists}, {@code map}, {@code filter})
 *                           of one evaluation may take together (CEL's {@code comprehensionMaxIterations}); past it
 *                           the evaluation fails (fail closed)
 * @param maxArgumentsBytes  the size of {@code args} (compact JSON, UTF-8) a condition may read; a condition that
 *                           reads larger arguments fails (fail closed), never reads a cut copy
 */
public record ConditionLimits(int maxExpressionChars, int maxNesting, int maxIterations, int maxArgumentsBytes) {
    public static final int DEFAULT_MAX_EXPRESSION_CHARS = 4096;
    public static final int DEFAULT_MAX_NESTING = 48;
    public static final int DEFAULT_MAX_ITERATIONS = 1000;
    public static final int DEFAULT_MAX_ARGUMENTS_BYTES = 64 * 1024;

    public ConditionLimits {
        if (maxExpressionChars < 16 || maxNesting < 4 || maxIterations < 1 || maxArgumentsBytes < 64) {
            throw new IllegalArgumentException("condition limits: max-expression-chars >= 16, max-nesting >= 4,"
                    + " max-iterations >= 1, max-arguments-bytes >= 64");
        }
    }

    public static ConditionLimits defaults() {
        return new ConditionLimits(DEFAULT_MAX_EXPRESSION_CHARS, DEFAULT_MAX_NESTING, DEFAULT_MAX_ITERATIONS,
                DEFAULT_MAX_ARGUMENTS_BYTES);
    }

    public ConditionLimits withMaxArgumentsBytes(int value) {
        return new ConditionLimits(maxExpressionChars, maxNesting, maxIterations, value);
    }

    public ConditionLimits withMaxIterations(int value) {
        return new ConditionLimits(maxExpressionChars, maxNesting, value, maxArgumentsBytes);
    }
}
