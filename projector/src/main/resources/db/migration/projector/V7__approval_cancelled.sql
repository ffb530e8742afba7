-- Issue 12: an approved held call is never run while the workspace's kill switch is on or its tool is
-- paused. The decision stream refuses the executor's claim then and ends the approval 'cancelled'
-- (ApprovedCallCancelled): approved -> cancelled, a terminal status. cancel_reason says why (the kill
-- switch, or which tool was paused), cancelled_at when; the held call is forgotten, as for every
-- approval that ended. Lifting the switch does not revive it: the agent asks again.

alter table approval_requests drop constraint approval_requests_status_check;
alter table approval_requests add constraint approval_requests_status_check
    check (status in ('pending', 'approved', 'rejected', 'expired', 'executing', 'executed', 'failed', 'cancelled'));

alter table approval_requests
    add column cancel_reason text,
    add column cancelled_at  timestamptz;
