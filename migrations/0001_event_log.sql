-- The append-only event log: the single source of truth every read model is rebuilt from.
-- transaction_id lets readers stop below the oldest open transaction, so an event that commits
-- late is never skipped. Check results are the bulk of the log: they live in monthly partitions
-- (by `at`), so retention is a partition drop; every other event type lives in one small table.
CREATE SEQUENCE event_log_position_seq AS bigint;

CREATE TABLE event_log (
  position        bigint      NOT NULL DEFAULT nextval('event_log_position_seq'),
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  type            text        NOT NULL,
  page            text        NOT NULL,
  page_hash       bigint      NOT NULL,
  at              timestamptz NOT NULL,
  data            jsonb       NOT NULL,
  event_id        text,
  recorded_at     timestamptz NOT NULL DEFAULT now()
) PARTITION BY LIST (type);

ALTER SEQUENCE event_log_position_seq OWNED BY event_log.position;

CREATE TABLE event_log_other PARTITION OF event_log DEFAULT;
CREATE TABLE event_log_checks PARTITION OF event_log FOR VALUES IN ('check.recorded') PARTITION BY RANGE (at);

CREATE INDEX event_log_tx_position_idx ON event_log (transaction_id, position);
CREATE INDEX event_log_position_idx ON event_log (position);

-- Monthly partitions of check results are created on demand by the append path, before the
-- transaction that needs them. The advisory lock serialises concurrent creators.
CREATE FUNCTION ensure_check_partition(month_start date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  part text := format('event_log_checks_%s', to_char(month_start, 'YYYY_MM'));
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ensure_check_partition'));
  IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
  EXECUTE format(
    'CREATE TABLE %I PARTITION OF event_log_checks FOR VALUES FROM (%L) TO (%L)',
    part, month_start::timestamp AT TIME ZONE 'UTC', (month_start + interval '1 month')::timestamp AT TIME ZONE 'UTC'
  );
END $$;

-- Idempotency keys. Kept apart from the partitioned log, whose unique indexes would have to
-- include the partition keys.
CREATE TABLE event_ids (
  event_id    text        PRIMARY KEY,
  position    bigint      NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
