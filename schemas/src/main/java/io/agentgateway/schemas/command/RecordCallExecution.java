package io.agentgateway.schemas.command;

import io.agentgateway.schemas.ExecutionOutcome;
import tools.jackson.databind.JsonNode;

/**
 * The executor that holds the claim reports how the run ended; the approval then ends as executed or
 * failed and leaves the decision stream's state.
 *
 * @param result the tool result ({@code {content:[{type,text}], ...}}), or the error for a failure
 */
public record RecordCallExecution(String approvalId, String executorId, ExecutionOutcome outcome, JsonNode result)
        implements Command {}
