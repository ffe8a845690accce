-- Subscriber notifications (docs/notifications.md). Subscribers live in their own tables beside
-- the log, never in it: erasing one is a DELETE that no rebuild or replay can bring back.
CREATE TABLE subscribers (
  id              text        PRIMARY KEY,
  page            text        NOT NULL,
  channel         text        NOT NULL CHECK (channel IN ('email', 'webhook', 'slack', 'teams', 'discord')),
  -- The address or URL: personal or secret data, kept here only (never in logs, Redis or a read model).
  target          text        NOT NULL,
  -- SHA-256 of the normalised target: finds a public sign-up again without comparing plaintext.
  target_digest   bytea       NOT NULL,
  components      text[]      NOT NULL DEFAULT '{}',
  monitor_states  boolean     NOT NULL DEFAULT false,
  format          text        NOT NULL DEFAULT 'native' CHECK (format IN ('native', 'statuspage')),
  origin          text        NOT NULL CHECK (origin IN ('public', 'operator')),
  state           text        NOT NULL CHECK (state IN ('pending', 'active', 'quarantined')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- Only events recorded after this reach the subscriber; null until confirmed.
  confirmed_at    timestamptz,
  quarantined_at  timestamptz,
  UNIQUE (page, channel, target_digest)
);
CREATE INDEX subscribers_page_active_idx ON subscribers (page) WHERE state = 'active';

-- Webhook signing secrets: after a rotation the old one keeps signing until expires_at (24 h).
CREATE TABLE subscriber_secrets (
  subscriber_id   text        NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  secret          text        NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz,
  PRIMARY KEY (subscriber_id, secret)
);

-- The outbox: one row per (source, subscriber), ever. A source is an event's log position or a
-- clock fact (a maintenance's reminder, start or end; a monitor's settled state), so a replay, a
-- rebuild or a second notifier plans the same row again and the primary key keeps it single.
CREATE TABLE notifications (
  source          text        NOT NULL,
  subscriber_id   text        NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  -- Stable across retries: the webhook-id and the Message-ID's local part.
  message_id      text        NOT NULL UNIQUE,
  page            text        NOT NULL,
  -- Updates of one incident inside the coalescing window share the first pending row's message.
  thread          text        NOT NULL,
  payload         jsonb       NOT NULL,
  state           text        NOT NULL CHECK (state IN ('pending', 'sent', 'coalesced', 'failed', 'dropped')),
  due_at          timestamptz NOT NULL,
  attempts        integer     NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz,
  PRIMARY KEY (source, subscriber_id)
);
CREATE INDEX notifications_due_idx ON notifications (due_at) WHERE state = 'pending';
CREATE INDEX notifications_thread_idx ON notifications (subscriber_id, thread, created_at);

-- The delivery log an operator reads (the last 100 attempts per subscriber).
CREATE TABLE notification_deliveries (
  id              bigserial   PRIMARY KEY,
  subscriber_id   text        NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  message_id      text        NOT NULL,
  type            text        NOT NULL,
  attempted_at    timestamptz NOT NULL DEFAULT now(),
  outcome         text        NOT NULL,
  status_code     integer,
  latency_ms      integer     NOT NULL
);
CREATE INDEX notification_deliveries_subscriber_idx ON notification_deliveries (subscriber_id, id DESC);

-- The notifier's own position in the log, apart from the projector's: rebuilding the read models
-- never moves it, so a rebuild sends nothing.
CREATE TABLE notifier_checkpoints (
  name            text        PRIMARY KEY,
  checkpoint      text        NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
