-- The console's sessions, sign-in flows and one-time sign-in links. Here, not in memory, so that a session works on
-- every ingress replica and survives their restarts; never in "public", so that a read-model rebuild never signs
-- anybody out. Only SHA-256 hashes of the browser's secrets are stored (the cookie's session id, a link's token, a
-- flow's state): a copy of this table signs nobody in. Migrated by the console (history
-- ingress.console_schema_history); V2 of the shared ingress.flyway_schema_history before each module migrated its own.

create table console_sessions (
    id_hash          text        primary key,
    user_id          text        not null,
    email            text,
    -- how the session was signed in: oidc (the organization's provider) or link (the embedded default's one-time link)
    signed_in_via    text        not null check (signed_in_via in ('oidc', 'link')),
    -- the per-session CSRF token every state-changing request must carry (useless without the cookie)
    csrf_token       text        not null,
    created_at       timestamptz not null,
    -- the last time the user proved who they are (sign-in, re-authentication): a kill switch asks for a recent one
    authenticated_at timestamptz not null,
    last_seen_at     timestamptz not null,
    ended_at         timestamptz
);
create index console_sessions_last_seen on console_sessions (last_seen_at);

-- An authorization code flow in progress: PKCE verifier and nonce, kept from the redirect to the provider until its
-- callback, on whichever replica that lands; used once.
create table console_sign_in_flows (
    state_hash    text        primary key,
    code_verifier text        not null,
    nonce         text        not null,
    return_to     text        not null,
    reauth_of     text,
    created_at    timestamptz not null,
    expires_at    timestamptz not null
);
create index console_sign_in_flows_expires on console_sign_in_flows (expires_at);

-- One-time sign-in links (the embedded default prints one for its demo owner): single use, short-lived.
create table console_sign_in_links (
    token_hash text        primary key,
    user_id    text        not null,
    email      text,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at    timestamptz
);
create index console_sign_in_links_expires on console_sign_in_links (expires_at);
