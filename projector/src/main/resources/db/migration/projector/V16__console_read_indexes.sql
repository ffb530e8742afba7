-- What the console's reads need at scale (10,000 open approvals, millions of audit rows per workspace):
--
-- the inbox: a user's workspaces' pending approvals, soonest expiry first (a partial index: ended approvals, the
-- great majority over time, are not in it);
create index approval_requests_pending_expiry on approval_requests (workspace_id, expires_at, id)
    where status = 'pending';
-- the approval page's timeline: everything of one correlation id;
create index approval_requests_ws_correlation on approval_requests (workspace_id, correlation_id);
-- the audit explorer's filters that the first migration's indexes do not serve, each newest first as the page reads
-- (agent, tool, decision and correlation id have theirs already);
create index audit_log_ws_action on audit_log (workspace_id, action, occurred_at desc, id);
create index audit_log_ws_risk on audit_log (workspace_id, risk_level, occurred_at desc, id);
create index audit_log_ws_undelivered on audit_log (workspace_id, occurred_at desc, id) where undelivered;
