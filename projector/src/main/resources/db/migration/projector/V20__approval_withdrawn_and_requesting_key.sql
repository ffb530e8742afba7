-- MCP tasks. A held MCP tools/call is a task of the MCP client that made it, derived from its approval and bound to
-- the API key whose evaluation opened it: requested_by_key_hash is that key's SHA-256 hash (the event envelope's
-- actor; null when no key opened it, as for a webhook, and for rows projected before this migration). Tasks are
-- read by workspace, key and newest first (tasks/list), hence the partial index.
--
-- The key that asked may withdraw its own pending approval (tasks/cancel, ApprovalWithdrawn): pending -> withdrawn,
-- a terminal status; cancel_reason holds what the agent's side said and cancelled_at when, as for 'cancelled'.

alter table approval_requests
    add column requested_by_key_hash text;

alter table approval_requests drop constraint approval_requests_status_check;
alter table approval_requests add constraint approval_requests_status_check
    check (status in ('pending', 'approved', 'rejected', 'expired', 'executing', 'executed', 'failed', 'cancelled',
                      'withdrawn'));

create index approval_requests_by_requesting_key
    on approval_requests (workspace_id, requested_by_key_hash, created_at desc, id desc)
    where requested_by_key_hash is not null;
