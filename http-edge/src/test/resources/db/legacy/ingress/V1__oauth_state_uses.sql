-- The ingress's shared history before each module migrated its own (V1, V2 and V4 here; V3 is still the shared
-- location's own, in main): the tables as an existing deployment has them, minimal.
create table oauth_state_uses (nonce text primary key);
