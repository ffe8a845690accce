-- Which PostgreSQL cluster wrote the log. Rows carry that cluster's transaction ids, which the
-- gap-free reader orders and filters by; pg_dump carries this row along, so after a restore into
-- another cluster it no longer matches the server and the services refuse to project until
-- `npm run repair-restore` has renumbered the log (src/eventLog/logOrigin.ts).
CREATE TABLE log_origin (
  only_row          boolean     PRIMARY KEY DEFAULT true CHECK (only_row),
  system_identifier text        NOT NULL,
  recorded_at       timestamptz NOT NULL DEFAULT now()
);

INSERT INTO log_origin (system_identifier) SELECT system_identifier::text FROM pg_control_system();
