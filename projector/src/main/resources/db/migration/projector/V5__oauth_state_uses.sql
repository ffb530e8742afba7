-- One row per OAuth state (its nonce) that reached a callback: the ingress inserts it before it
-- exchanges the code, and an insert that finds the row already there is a reused state, refused.
-- PostgreSQL is what every ingress replica shares and what survives their restarts, so one-time use
-- holds across both. Not a read model of the event log: the ingress writes it, not the projector.
-- Rows are useless once the state has expired (its signature check refuses it first), and the ingress
-- deletes them then.
create table oauth_state_uses (
    nonce        text        primary key,
    workspace_id uuid        not null,
    tool         text        not null,
    used_by      text        not null,
    used_at      timestamptz not null default now(),
    expires_at   timestamptz not null
);

create index oauth_state_uses_expires_at on oauth_state_uses (expires_at);
