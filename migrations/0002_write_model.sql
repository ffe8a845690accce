-- What the write side must know to check the reference rules of ingest.md (a page, monitor,
-- incident or maintenance must exist). Updated in the same transaction as each append, so it is
-- always exactly what the log implies.
CREATE TABLE pages (
  slug    text    PRIMARY KEY,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE monitors (
  monitor_id bigint  PRIMARY KEY,
  page       text    NOT NULL,
  removed    boolean NOT NULL DEFAULT false
);

CREATE TABLE incidents (
  page        text NOT NULL,
  incident_id text NOT NULL,
  PRIMARY KEY (page, incident_id)
);

CREATE TABLE maintenances (
  page           text NOT NULL,
  maintenance_id text NOT NULL,
  PRIMARY KEY (page, maintenance_id)
);

-- Events a projection could not apply in continuous mode, kept for an operator to inspect.
CREATE TABLE dead_letters (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  projection  text        NOT NULL,
  position    bigint      NOT NULL,
  error       text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
