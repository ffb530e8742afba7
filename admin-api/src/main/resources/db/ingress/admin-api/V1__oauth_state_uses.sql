-- The ingress's own tables live in schema "ingress", each module's migrated by that module (the admin API's: history
-- ingress.admin_api_schema_history; until each module had its own, this was V1 of the shared
-- ingress.flyway_schema_history), so that the projector's read-model rebuild, which swaps the tables its own migrations
-- create in "public", never touches them.
--
-- One row per OAuth state (its nonce) that reached a callback: the ingress inserts it before it exchanges the code,
-- and an insert that finds the row already there is a reused state, refused. PostgreSQL is what every ingress replica
-- shares and what survives their restarts, so one-time use holds across both. Rows are useless once the state has
-- expired (its signature check refuses it first), and the ingress deletes them then.
create table oauth_state_uses (
    nonce        text        primary key,
    workspace_id uuid        not null,
    tool         text        not null,
    used_by      text        not null,
    used_at      timestamptz not null default now(),
    expires_at   timestamptz not null
);

create index oauth_state_uses_expires_at on oauth_state_uses (expires_at);

-- Until issue 18 the table was public.oauth_state_uses, created by the projector's migration V5. Its rows are states
-- spent before this upgrade and still unexpired: carried over, so that none becomes usable again; then the old table
-- goes (the projector's V10 drops it only while it is empty, whichever service migrates first).
do $$
begin
    if to_regclass('public.oauth_state_uses') is not null then
        insert into oauth_state_uses (nonce, workspace_id, tool, used_by, used_at, expires_at)
        select nonce, workspace_id, tool, used_by, used_at, expires_at from public.oauth_state_uses
        on conflict (nonce) do nothing;
        drop table public.oauth_state_uses;
    end if;
end $$;
