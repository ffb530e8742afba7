-- The console's roles: a reviewer reads a workspace and decides its approvals, a viewer only reads it (both judged by
-- the decision stream in log order; the read model only shows them).
alter table workspace_members drop constraint workspace_members_role_check;
alter table workspace_members add constraint workspace_members_role_check
    check (role in ('owner', 'admin', 'member', 'reviewer', 'viewer'));

-- Why a kill switch was pressed (KillSwitchChanged.reason, when the caller gave one): with actor_user_id and
-- occurred_at, the workspace's state says who turned it on, when and why.
alter table kill_switch_history
    add column reason text;
