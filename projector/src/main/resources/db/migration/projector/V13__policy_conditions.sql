-- Policy conditions: a policy's CEL condition (null: none), and on an evaluation's audit row the conditions that
-- could not be evaluated on the way to its decision with what the fail-closed rule made of each
-- ([{policyId, policyName, error, countedAsMatch}], null: none failed). Rows written before read as none.
alter table policies
    add column condition text;
alter table audit_log
    add column condition_errors jsonb;
