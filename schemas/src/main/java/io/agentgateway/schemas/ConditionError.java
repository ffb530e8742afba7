package io.agentgateway.schemas;

/**
 * A policy condition that could not be evaluated for one action, and what the fail-closed rule made of it: a
 * {@code block} or {@code require_approval} policy counts it as a match ({@code countedAsMatch} true), an
 * {@code allow} policy as no match.
 *
 * @param policyId       the policy whose condition failed
 * @param policyName     its name when it was evaluated
 * @param error          what failed, e.g. {@code key 'amount' is not present in map}, or that the arguments were over
 *                       the size a condition may read
 * @param countedAsMatch true: the policy matched because of the failure (and decided); false: it was skipped
 */
public record ConditionError(String policyId, String policyName, String error, boolean countedAsMatch) {}
