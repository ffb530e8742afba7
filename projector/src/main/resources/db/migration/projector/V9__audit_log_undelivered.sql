-- Deadlines (issue 17): an evaluation decided after its caller's deadline reached nobody (the caller got
-- 503/504, nothing was forwarded, no approval was opened). The row says so; rows written before this
-- column existed were all answered in time or are indistinguishable, and read as delivered.
alter table audit_log
    add column undelivered boolean not null default false;
