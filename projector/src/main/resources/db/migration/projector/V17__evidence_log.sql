-- The workspaces' Merkle logs (docs/evidence.md). The decision stream seals every audit entry, approval review and
-- run, kill-switch call, policy change and payload erasure into its workspace's log (RFC 9162 hashing) and signs
-- checkpoints; these tables hold copies an outsider can check against the signed roots.
--
-- audit_log: an audit row is an entry of the log itself: its sequence number, its leaf as sealed (base64) and the
-- payload's digests, which the entry seals instead of the payload (so that the payload can be erased). The live check
-- recomputes each row's entry from its columns. (The leaf is kept in the row rather than in a row of its own: one
-- insert per decision, not two.)
alter table audit_log
    add column sequence               bigint,
    add column leaf_hash              text,
    add column payload_sha256         text,
    add column payload_excerpt_sha256 text;
create index audit_log_ws_sequence on audit_log (workspace_id, sequence);

-- The entries that are no audit row (approval requests, reviews and runs, undelivered marks, policy changes, payload
-- erasures), in sequence: leaf_hash is the leaf as sealed (base64), entry the encoded entry (base64, format
-- agw-evidence-entry/v1), audit_log_id the audit row it concerns, if any. Append-only, no foreign keys, keyed by what
-- the stream sealed.
create table evidence_entries (
    workspace_id uuid   not null,
    sequence     bigint not null,
    kind         text   not null,
    event_id     uuid   not null,
    audit_log_id uuid,
    leaf_hash    text   not null,
    entry        text,
    primary key (workspace_id, sequence)
);
create index evidence_entries_ws_audit on evidence_entries (workspace_id, audit_log_id);
-- the few entries that mark an audit row undelivered: read before every check of a row's entry
create index evidence_entries_ws_undelivered on evidence_entries (workspace_id) where kind = 'evaluation_undelivered';

-- Every complete subtree of every log from level 4 up (16 leaves and more), as the stream computed it when it appended
-- the subtree's last leaf: an inclusion or consistency proof needs at most two per level of the tree, found by primary
-- key (a few dozen lookups for a million entries), never recomputed from the leaves but for the lowest levels (a
-- subtree of at most 8 leaves is hashed from them: one node row per 16 entries instead of one per entry).
create table evidence_nodes (
    workspace_id uuid     not null,
    level        smallint not null,
    node_index   bigint   not null,
    hash         text     not null,
    primary key (workspace_id, level, node_index)
);

-- The checkpoints the stream issued (C2SP tlog-checkpoint signed notes), every N entries or T seconds. Keyed by the
-- event: two checkpoints of one size with different roots (a fork) are both kept, so that the live check finds them.
create table evidence_checkpoints (
    event_id     uuid primary key,
    workspace_id uuid        not null,
    tree_size    bigint      not null,
    root_hash    text        not null,
    note         text        not null,
    signed_by    text,
    issued_at    timestamptz not null
);
create index evidence_checkpoints_ws_size on evidence_checkpoints (workspace_id, tree_size desc);
