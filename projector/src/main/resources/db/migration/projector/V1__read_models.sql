-- Read models built from the events topic by the projector. Every row is keyed by an id derived
-- from the event stream, and every write is an upsert, so a redelivered or replayed event never
-- adds a second row.
--
-- workspaces.workspace_version is the version of the newest event that changed the projected
-- configuration of the workspace (settings, kill switch, members, policies, API keys). An event
-- older than it changes no current state (workspaces, workspace_members, policies), so a replay
-- cannot roll state back and a removed member or deleted policy stays gone. A reader that knows the
-- version its command produced can wait until workspace_version reaches it.
--
-- audit_log, approval_requests and kill_switch_history are append-only and deliberately have no
-- foreign keys: the projector inserts them in one JDBC batch per table, in any order relative to the
-- other writes of a batch.

create table workspaces (
    id                   uuid primary key,
    name                 text        not null,
    created_at           timestamptz not null,
    kill_switch_enabled  boolean     not null default false,
    paused_tools         text[]      not null default '{}',
    chat_configured      boolean     not null default false,
    email_enabled        boolean     not null default true,
    default_decisions    jsonb       not null default '{}',
    approval_ttl_seconds bigint,
    policy_set_version   bigint      not null default 0,
    workspace_version    bigint      not null default 0,
    updated_at           timestamptz not null
);

create table workspace_members (
    workspace_id uuid        not null references workspaces (id),
    user_id      text        not null,
    email        text,
    role         text        not null check (role in ('owner', 'admin', 'member')),
    updated_at   timestamptz not null,
    primary key (workspace_id, user_id)
);

-- Only the SHA-256 hash of a key is ever stored.
create table api_keys (
    key_id       uuid primary key,
    workspace_id uuid        not null references workspaces (id),
    name         text,
    key_hash     text        not null unique,
    scopes       text[]      not null,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    created_at   timestamptz not null
);
create index api_keys_workspace on api_keys (workspace_id);

create table policies (
    workspace_id uuid        not null references workspaces (id),
    policy_id    uuid        not null,
    name         text        not null,
    priority     integer     not null,
    enabled      boolean     not null,
    decision     text        not null,
    match        jsonb       not null,
    description  text,
    updated_at   timestamptz not null,
    primary key (workspace_id, policy_id)
);

-- One row per evaluation (kind action_evaluated) and per kill-switch call (kind kill_switch).
create table audit_log (
    id                        uuid primary key,
    workspace_id              uuid        not null,
    event_id                  uuid        not null,
    command_id                text        not null,
    correlation_id            text        not null,
    occurred_at               timestamptz not null,
    kind                      text        not null check (kind in ('action_evaluated', 'kill_switch')),
    tool                      text,
    action                    text        not null,
    risk_level                text        not null,
    supplied_risk_level       text,
    risk_classification       text,
    risk_overridden_by_caller boolean     not null default false,
    decision                  text,
    reason                    text,
    matched_policy_id         text,
    matched_policy_name       text,
    approval_request_id       uuid,
    agent_id                  text,
    agent_name                text,
    resource_type             text,
    resource_id               text,
    requested_by              text,
    source                    text,
    actor_user_id             text,
    payload_excerpt           text,
    payload_truncated         boolean     not null default false,
    payload_bytes             integer,
    policy_set_version        bigint,
    workspace_version         bigint,
    projected_at              timestamptz not null default now()
);
create index audit_log_ws_time on audit_log (workspace_id, occurred_at desc, id);
create index audit_log_ws_correlation on audit_log (workspace_id, correlation_id);
create index audit_log_ws_agent on audit_log (workspace_id, agent_id, occurred_at desc);
create index audit_log_ws_tool on audit_log (workspace_id, tool, occurred_at desc);
create index audit_log_ws_decision on audit_log (workspace_id, decision, occurred_at desc);

create table approval_requests (
    id               uuid primary key,
    workspace_id     uuid        not null,
    audit_log_id     uuid        not null,
    correlation_id   text        not null,
    tool             text        not null,
    action           text        not null,
    risk_level       text        not null,
    agent_id         text,
    call_digest      text        not null,
    status           text        not null check (status in ('pending', 'approved', 'rejected', 'expired', 'executed', 'failed')),
    created_at       timestamptz not null,
    expires_at       timestamptz not null,
    reviewed_at      timestamptz,
    reviewed_by      text,
    review_reason    text,
    execution_result jsonb,
    updated_at       timestamptz not null
);
create index approval_requests_ws on approval_requests (workspace_id, status, created_at desc);

create table kill_switch_history (
    audit_log_id        uuid primary key,
    workspace_id        uuid        not null,
    action              text        not null,
    tool                text,
    kill_switch_enabled boolean     not null,
    paused_tools        text[]      not null,
    actor_user_id       text,
    correlation_id      text        not null,
    occurred_at         timestamptz not null
);
create index kill_switch_history_ws on kill_switch_history (workspace_id, occurred_at desc);
