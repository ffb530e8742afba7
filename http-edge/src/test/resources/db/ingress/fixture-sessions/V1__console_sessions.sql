-- Adopts V2 of the shared history.
create table console_sessions (id_hash text primary key);
