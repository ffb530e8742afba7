create table notification_redrives (position text primary key);
