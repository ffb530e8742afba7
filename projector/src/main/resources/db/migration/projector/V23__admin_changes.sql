-- Who changed what in a workspace's administration, one row per event: policies, defaults, API keys, members,
-- notification settings, tool connections, the workspace's creation. The events topic keeps every change with its
-- actor for ever; this is the part the console and the admin API show beside each setting ("changed by ... at ...").
-- summary is written by the projector from the event and never holds a secret (a key, a token, a webhook secret or a
-- chat webhook URL is only ever said to be set). Immutable rows keyed by the event id: a redelivered event adds none.
create table admin_changes (
    event_id       uuid        primary key,
    workspace_id   uuid        not null,
    occurred_at    timestamptz not null,
    area           text        not null
        check (area in ('workspace', 'policy', 'defaults', 'api_key', 'member', 'notifications', 'tool', 'audit')),
    subject        text,
    summary        text        not null,
    actor_user_id  text,
    correlation_id text        not null
);
create index admin_changes_ws_area on admin_changes (workspace_id, area, occurred_at desc, event_id);
