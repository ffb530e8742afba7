package io.agentgateway.actiongate.callview;

/**
 * The status a reader sees. A pending request past its {@code expires_at} is expired whether or not
 * the decision stream has noticed yet (it notices at the next review of it or when another approval
 * opens); {@code expires_at} itself is still in time, as the stream judges a review accepted then. Read by the
 * admin API's approval lists and the agents' approval status endpoint alike.
 */
public final class ApprovalStatusSql {
    public static final String EFFECTIVE_STATUS =
            "case when status = 'pending' and expires_at < now() then 'expired' else status end";

    private ApprovalStatusSql() {}
}
