-- A check older than the recent ones the projector keeps in Redis (a backfill) is projected from
-- the log: the projector reads that monitor's checks around it, in time order.
CREATE INDEX IF NOT EXISTS event_log_checks_monitor_at_idx
  ON event_log_checks ((data->>'monitor_id'), at, position);
