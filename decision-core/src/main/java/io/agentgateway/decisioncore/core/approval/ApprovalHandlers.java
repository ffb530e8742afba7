package io.agentgateway.decisioncore.core.approval;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.WithdrawApproval;

/**
 * The handlers of an approval's life after it opened (review, the executor's claim and record, the withdrawal by the
 * key that opened it), for {@code CommandHandlers}' table; the handlers themselves stay package-private.
 */
public final class ApprovalHandlers {
    private ApprovalHandlers() {}

    public static CommandHandler<ReviewApproval> reviewApproval(boolean fourEyes) {
        return new ReviewApprovalHandler(fourEyes);
    }

    public static CommandHandler<ClaimApprovedCall> claimApprovedCall() {
        return new ClaimApprovedCallHandler();
    }

    public static CommandHandler<RecordCallExecution> recordCallExecution() {
        return new RecordCallExecutionHandler();
    }

    public static CommandHandler<WithdrawApproval> withdrawApproval(CommandAuthorizer authorizer) {
        return new WithdrawApprovalHandler(authorizer);
    }
}
