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
