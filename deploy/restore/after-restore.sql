-- Run on chasqui's database after restoring it and Temporal's (docs/operations.md, "Restoring from a backup").
-- Every document without a verdict is started again by the sweeper within a minute: its workflow may be missing from
-- Temporal's backup, and starting one that exists is harmless (the workflow id is the document's). Each is also marked
-- as possibly sent: it may have reached SUNAT after the backup was taken, so it asks SUNAT for its CDR before sending
-- (and takes SUNAT's "already registered" as its own), exactly as after a worker that died mid-send.
update documents
   set workflow_started_at = null,
       send_started_at = coalesce(send_started_at, now()),
       updated_at = now()
 where not resolved
   and status <> 'to_summarize';

-- The restore itself (psql -v backup_taken_at=…, the time the backup was taken): a document posted again after it,
-- whose number SUNAT registered between the backup and now, is taken as the lost one (docs/operations.md).
insert into restores (backup_taken_at) values (:'backup_taken_at');
