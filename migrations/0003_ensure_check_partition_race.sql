-- Two appends that need the same new month at once: the second must not fail because the first
-- created the partition between its check and its CREATE (the catalog check can be stale).
CREATE OR REPLACE FUNCTION ensure_check_partition(month_start date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  part text := format('event_log_checks_%s', to_char(month_start, 'YYYY_MM'));
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN; END IF;
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
