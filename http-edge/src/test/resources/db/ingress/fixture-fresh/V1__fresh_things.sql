-- A module that was never in the shared history, first migrated into a schema that holds other modules' tables.
create table fresh_things (id bigint primary key);
