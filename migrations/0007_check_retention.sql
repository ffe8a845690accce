-- Retention of raw check results: whole monthly tables are dropped, never rows deleted (no vacuum
-- storm). The read models serve at most the last 366 days of checks (the 1-year availability
-- period and its failures), so a month may go once it ended more than 400 days ago: every figure
-- a rebuild computes afterwards is the one served before (docs/scaling.md, "Retention").
-- Configuration events, incidents and maintenances live in event_log_other and are never dropped.
--
--   SET lock_timeout = '5s';  -- dropping a month locks event_log_checks for a moment
--   SELECT drop_check_months_before('2025-01-01');
--
-- drops every monthly table that ends on or before the given date and refuses a date later than
-- 400 days ago. Returns the names of the tables dropped.
CREATE FUNCTION drop_check_months_before(cutoff date) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  horizon date := (now() AT TIME ZONE 'UTC')::date - 400;
  month record;
BEGIN
  IF cutoff > horizon THEN
    RAISE EXCEPTION 'checks after % are still inside the periods the read models serve (the last 366 days): choose a cutoff on or before %', cutoff, horizon;
  END IF;
  FOR month IN
    SELECT c.relname, to_date(right(c.relname, 7), 'YYYY_MM') AS starts
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'event_log_checks'::regclass AND c.relname ~ '^event_log_checks_\d{4}_\d{2}$'
    ORDER BY c.relname
  LOOP
    CONTINUE WHEN (month.starts + interval '1 month')::date > cutoff;
    EXECUTE format('DROP TABLE %I', month.relname);
    RETURN NEXT month.relname;
  END LOOP;
END $$;
