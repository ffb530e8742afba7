-- A command the decision stream refused because the workspace is at one of its limits (LimitReached) is
-- an audit entry of its own kind: action = the refused command's type, reason = the error the caller got.
alter table audit_log drop constraint audit_log_kind_check;
alter table audit_log add constraint audit_log_kind_check
    check (kind in ('action_evaluated', 'kill_switch', 'limit_reached'));
