-- New with the module's own history: applied everywhere.
create table auth_audit (id bigint primary key);
