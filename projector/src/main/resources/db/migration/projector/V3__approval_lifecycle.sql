-- The approval lifecycle (DESIGN.md "Approvals"): pending -> approved -> executing -> executed | failed,
-- pending -> rejected, pending -> expired. Each transition is an update that applies only from the
-- status it leaves, so a redelivered or replayed event can never move an approval backwards.
--
-- executing: one executor claimed the approved call and is running it (at most once: a crash before
-- the outcome is recorded leaves it executing for good).
-- sealed_held_call: the call the gateway runs after approval (proxy, MCP gate), sealed by SecretBox;
-- cleared once the approval has ended. held_call_kind says what it is without opening it.

alter table approval_requests drop constraint approval_requests_status_check;
alter table approval_requests add constraint approval_requests_status_check
    check (status in ('pending', 'approved', 'rejected', 'expired', 'executing', 'executed', 'failed'));

alter table approval_requests
    add column held_call_kind   text check (held_call_kind in ('http_request', 'mcp_tool_call')),
    add column sealed_held_call text,
    add column claimed_by       text,
    add column claimed_at       timestamptz,
    add column executed_at      timestamptz;
