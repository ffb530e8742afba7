create table console_sessions (id_hash text primary key);
