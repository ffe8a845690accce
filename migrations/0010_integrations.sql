-- Integrations (docs/integrations.md). Tokens are kept as SHA-256 digests only: an integration
-- token lets one page's alerting write to that page; a push token reports one push monitor.
-- They live beside the log, not in it, so a rebuild of the read models leaves them alone.
CREATE TABLE integration_tokens (
  token_id    text        PRIMARY KEY,
  token_hash  text        NOT NULL UNIQUE,
  page        text        NOT NULL,
  kind        text        NOT NULL CHECK (kind IN ('integration', 'push')),
  monitor_id  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  CHECK ((kind = 'push') = (monitor_id IS NOT NULL))
);
CREATE INDEX integration_tokens_page_idx ON integration_tokens (page, kind);

-- The alerts an Alertmanager or Grafana has reported per monitor: a monitor turns up only when
-- every alert mapped to it has resolved, whichever notification (group) reported each one.
CREATE TABLE integration_alerts (
  page        text        NOT NULL,
  monitor_id  bigint      NOT NULL,
  fingerprint text        NOT NULL,
  starts_at   timestamptz NOT NULL,
  status      text        NOT NULL CHECK (status IN ('down', 'degraded')),
  ends_at     timestamptz,
  PRIMARY KEY (page, monitor_id, fingerprint, starts_at)
);

-- Mapping an alert (or a push) to a monitor reads the page's monitor settings from the log.
CREATE INDEX IF NOT EXISTS event_log_other_monitor_settings_idx
  ON event_log_other (page, position) WHERE type = 'monitor.configured';
-- The heartbeat scheduler finds the monitors ever configured as push monitors.
CREATE INDEX IF NOT EXISTS event_log_other_push_monitors_idx
  ON event_log_other ((data->>'monitor_id')) WHERE type = 'monitor.configured' AND data->>'type' = 'push';
-- Incidents opened by alert groups (page setting alert_incidents: open): the group's incident now.
CREATE TABLE integration_incidents (
  page        text   NOT NULL,
  group_key   text   NOT NULL,
  incident_id text   NOT NULL,
  seq         int    NOT NULL,
  PRIMARY KEY (page, group_key)
);
-- The page's settings (alert_incidents), its deletions and an incident's updates, read from the log.
CREATE INDEX IF NOT EXISTS event_log_other_page_settings_idx
  ON event_log_other (page, position) WHERE type = 'page.configured';
-- A token dies with its page: one created before the page's latest deletion is refused.
CREATE INDEX IF NOT EXISTS event_log_other_page_deleted_idx
  ON event_log_other (page, recorded_at) WHERE type = 'page.deleted';
CREATE INDEX IF NOT EXISTS event_log_other_incident_idx
  ON event_log_other (page, (data->>'incident_id'), position) WHERE type IN ('incident.opened', 'incident.updated');
