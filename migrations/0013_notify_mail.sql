-- The key that signs the links of subscriber mails (confirm, manage, unsubscribe) when
-- MAIL_TOKEN_SECRET is not set: generated once, shared by every process that reads this database,
-- so a link signed by a worker opens on any API process. Never logged, never in Redis.
CREATE TABLE mail_keys (
  name        text        PRIMARY KEY,
  secret      text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
