-- An admin may erase an audit entry's stored payload (a privacy request, erase_audit_payload): the excerpt goes, here
-- and in the webhook event that carried the same payload; the digests the Merkle log sealed stay, so the log still
-- verifies. payload_erased_at says when (null: not erased).
alter table audit_log
    add column payload_erased_at timestamptz;
