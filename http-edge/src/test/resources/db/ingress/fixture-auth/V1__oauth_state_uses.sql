-- Adopts V1 of the shared history: run again on a deployment that applied it, this would fail (the table exists).
create table oauth_state_uses (nonce text primary key);
