-- MCP tasks of calls that were allowed. A client speaking MCP 2025-11-25 that asks for a tools/call as a task must get
-- a task back even when the call runs at once: the gate runs it, keeps the CallToolResult the client would have got
-- here, and answers a task that is already completed (or failed). tasks/get and tasks/result on any replica, after
-- any restart, read it here; held calls need no row (their tasks are their approvals, in the read models).
--
-- A row is bound to the API key (its SHA-256 hash) and workspace that made the call: another key's lookup finds
-- nothing. Results are kept until expires_at (gateway.mcp.task-retention after the call); the ingress deletes rows
-- past it.
create table mcp_task_results (
    task_id      uuid        primary key,
    workspace_id uuid        not null,
    key_hash     text        not null,
    created_at   timestamptz not null,
    expires_at   timestamptz not null,
    status       text        not null check (status in ('completed', 'failed')),
    result       jsonb       not null
);

create index mcp_task_results_by_key on mcp_task_results (workspace_id, key_hash, created_at desc, task_id desc);
create index mcp_task_results_expires_at on mcp_task_results (expires_at);
