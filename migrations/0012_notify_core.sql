-- The notifier's own state beside the outbox. A monitor's state is notified only once it has held
-- for the page's state_hold_seconds: the latest state the log shows, since when, and the state
-- last notified (null: none yet, taken as up), so a flapping monitor sends nothing.
CREATE TABLE notifier_monitor_states (
  page            text        NOT NULL,
  monitor_id      integer     NOT NULL,
  state           text        NOT NULL CHECK (state IN ('up', 'degraded', 'down')),
  since           timestamptz NOT NULL,
  -- `at` of the latest check applied: an older check arriving late changes nothing.
  last_at         timestamptz NOT NULL,
  notified_state  text        CHECK (notified_state IN ('up', 'degraded', 'down')),
  PRIMARY KEY (page, monitor_id)
);
CREATE INDEX notifier_monitor_states_unsettled_idx ON notifier_monitor_states (since)
  WHERE notified_state IS DISTINCT FROM state;

-- Coalescing reads the newest message of an incident's thread for every subscriber at once.
CREATE INDEX notifications_thread_head_idx ON notifications (thread, subscriber_id, due_at DESC)
  WHERE state <> 'coalesced';

-- The notifier folds one page's non-check events into its incidents and maintenances.
CREATE INDEX event_log_other_page_idx ON event_log_other (page, transaction_id, position);
