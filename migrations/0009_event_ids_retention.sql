-- Idempotency keys go with the checks they name: when retention drops a month of checks, the ids
-- of that month's events leave event_ids in the same transaction, so the table every append reads
-- stays as bounded as the log itself (found by id, event_ids' primary key: no other index).
-- Ids of everything else (pages, monitors, incidents, maintenances, kept for good) stay for good.
--
-- The dropped span is remembered as a horizon, and a check dated before it is refused at ingest
-- (`at: checks before … were dropped by retention`): a check re-sent after its month was dropped
-- is neither a silent duplicate nor appended again (docs/ingest.md, "Idempotency").
CREATE TABLE check_retention (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  horizon  date    NOT NULL -- no check before this day is in the log any more
);

CREATE OR REPLACE FUNCTION drop_check_months_before(cutoff date) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  horizon date := (now() AT TIME ZONE 'UTC')::date - 400;
  month record;
BEGIN
  IF cutoff > horizon THEN
    RAISE EXCEPTION 'checks after % are still inside the periods the read models serve (the last 366 days): choose a cutoff on or before %', cutoff, horizon;
  END IF;
  -- Every month that ends on or before the cutoff goes: nothing before the cutoff's month is left.
  INSERT INTO check_retention (horizon) VALUES (date_trunc('month', cutoff)::date)
  ON CONFLICT (only_row) DO UPDATE SET horizon = greatest(check_retention.horizon, excluded.horizon);
  FOR month IN
    SELECT c.relname, to_date(right(c.relname, 7), 'YYYY_MM') AS starts
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'event_log_checks'::regclass AND c.relname ~ '^event_log_checks_\d{4}_\d{2}$'
    ORDER BY c.relname
  LOOP
    CONTINUE WHEN (month.starts + interval '1 month')::date > cutoff;
    EXECUTE format(
      'DELETE FROM event_ids e USING %I c WHERE c.event_id IS NOT NULL AND e.event_id = c.event_id AND e.position = c.position',
      month.relname);
    EXECUTE format('DROP TABLE %I', month.relname);
    RETURN NEXT month.relname;
  END LOOP;
END $$;

-- A month before the horizon is never created again (an append of such a check is refused).
CREATE OR REPLACE FUNCTION ensure_check_partition(month_start date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  part text := format('event_log_checks_%s', to_char(month_start, 'YYYY_MM'));
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM check_retention WHERE month_start < horizon) THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('ensure_check_partition'));
  IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
  BEGIN
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF event_log_checks FOR VALUES FROM (%L) TO (%L)',
      part, month_start::timestamp AT TIME ZONE 'UTC', (month_start + interval '1 month')::timestamp AT TIME ZONE 'UTC'
    );
  EXCEPTION WHEN duplicate_table THEN
    NULL; -- created concurrently: exactly what we wanted
  END;
END $$;
