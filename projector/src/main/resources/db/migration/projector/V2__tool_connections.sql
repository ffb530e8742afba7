-- A workspace's connection to each tool (spec section 2), from tool_connection_upserted,
-- webhook_secret_rotated (both carry the whole connection after the change) and
-- tool_connection_deleted. Keyed by (workspace, tool) and guarded by workspaces.workspace_version like
-- every other state table, so a replay cannot bring back a deleted connection or an old token.
--
-- The access token and the webhook secret are stored sealed (SecretBox, AES-256-GCM with
-- gateway.secrets.key, "v1.<base64url>"), never in clear; the check below refuses anything else.
-- paused is not stored here: it is the kill switch's (workspaces.paused_tools) and is joined in when
-- a connection is read, so the two can never disagree.
create table tool_connections (
    workspace_id          uuid        not null references workspaces (id),
    tool                  text        not null
        check (tool in ('code_host', 'issue_tracker', 'chat', 'docs', 'internal_api', 'mcp')),
    repos                 text[]      not null default '{}',
    org                   text,
    organization_id       text,
    team_id               text,
    sealed_access_token   text        check (sealed_access_token ~ '^v1\.[A-Za-z0-9_-]+$'),
    sealed_webhook_secret text        check (sealed_webhook_secret ~ '^v1\.[A-Za-z0-9_-]+$'),
    mcp_server_url        text,
    mcp_auth_type         text        check (mcp_auth_type in ('bearer', 'token')),
    mcp_transport         text        check (mcp_transport in ('sse', 'http')),
    base_url              text,
    version               bigint      not null,
    updated_at            timestamptz not null,
    updated_by            text,
    primary key (workspace_id, tool)
);

-- Inbound webhooks find their workspace by repository, organization login, or issue-tracker
-- organization / team (spec section 6), across all workspaces.
create index tool_connections_repos on tool_connections using gin (repos);
create index tool_connections_org on tool_connections (org) where org is not null;
create index tool_connections_organization on tool_connections (organization_id) where organization_id is not null;
