-- Issue 16. Approving with eyes open: what a held call will do, as reviewers are shown it (the CallView the
-- entry point made from the call it sealed: method, path and query, the GraphQL document and variables, the MCP
-- tool and arguments, a bounded body excerpt; secrets and credentials redacted before it entered the log).
-- Rows of approvals opened before it have none (null).
alter table approval_requests
    add column call_view jsonb;

-- Agent identity: a key can be bound to one agent id or a pattern of them; the audit entry says whether its
-- agent was bound to the key or only asserted by the caller (null: no agent id, or recorded before it).
alter table api_keys
    add column agent_id         text,
    add column agent_id_pattern text;

alter table audit_log
    add column agent_identity text check (agent_identity in ('bound', 'asserted'));
