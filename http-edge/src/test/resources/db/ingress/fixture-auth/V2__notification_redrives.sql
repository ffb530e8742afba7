-- Adopts V4 of the shared history.
create table notification_redrives (position text primary key);
