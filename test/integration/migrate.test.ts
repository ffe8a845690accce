import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { migrate, withDatabase } from '../../src/eventLog/migrate.ts';

describe('npm run migrate', () => {
  const name = `sp_t${inject('runId')}_migrate`;
  const url = withDatabase(inject('pgServerUrl'), name);
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: withDatabase(inject('pgServerUrl'), 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('creates the database, applies every migration in order, and then has nothing to do', async () => {
    const applied = await migrate(url);
    expect(applied).toEqual([
      '0001_event_log.sql',
      '0002_write_model.sql',
      '0003_ensure_check_partition_race.sql',
      '0004_checks_by_monitor.sql',
      '0005_log_origin.sql',
      '0006_page_custom_domains.sql',
      '0007_check_retention.sql',
      '0008_dead_letters_once.sql',
      '0009_event_ids_retention.sql',
      '0010_integrations.sql',
      '0011_notifications.sql',
      '0012_notify_core.sql',
      '0013_notify_mail.sql',
      '0014_subscribers_by_page_id.sql',
    ]);
    expect(await migrate(url)).toEqual([]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      expect(tables.rows.map((r) => r.name)).toEqual([
        'check_retention',
        'dead_letters',
        'event_ids',
        'event_log',
        'event_log_checks',
        'event_log_other',
        'incidents',
        'integration_alerts',
        'integration_incidents',
        'integration_tokens',
        'log_origin',
        'mail_keys',
        'maintenances',
        'monitors',
        'notification_deliveries',
        'notifications',
        'notifier_checkpoints',
        'notifier_monitor_states',
        'pages',
        'schema_migrations',
        'subscriber_secrets',
        'subscribers',
      ]);
    } finally {
      await client.end();
    }
  });

  it('is safe when two processes migrate at once', async () => {
    const other = `${name}_race`;
    const raceUrl = withDatabase(inject('pgServerUrl'), other);
    const results = await Promise.all([migrate(raceUrl), migrate(raceUrl)]);
    expect(results.flat().sort()).toEqual([
      '0001_event_log.sql',
      '0002_write_model.sql',
      '0003_ensure_check_partition_race.sql',
      '0004_checks_by_monitor.sql',
      '0005_log_origin.sql',
      '0006_page_custom_domains.sql',
      '0007_check_retention.sql',
      '0008_dead_letters_once.sql',
      '0009_event_ids_retention.sql',
      '0010_integrations.sql',
      '0011_notifications.sql',
      '0012_notify_core.sql',
      '0013_notify_mail.sql',
      '0014_subscribers_by_page_id.sql',
    ]);
    const admin = new pg.Client({ connectionString: withDatabase(inject('pgServerUrl'), 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${other}" WITH (FORCE)`);
    await admin.end();
  });

  it('gives each live page the custom domain of its latest settings, the later of two claims winning', async () => {
    const before = `${name}_domains`;
    const beforeUrl = withDatabase(inject('pgServerUrl'), before);
    const admin = new pg.Client({ connectionString: withDatabase(inject('pgServerUrl'), 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${before}"`);
    const client = new pg.Client({ connectionString: beforeUrl });
    await client.connect();
    try {
      // A database as the first three migrations left it, with pages configured back then.
      await client.query(
        'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const file of [
        '0001_event_log.sql',
        '0002_write_model.sql',
        '0003_ensure_check_partition_race.sql',
      ]) {
        await client.query(await readFile(new URL(`../../migrations/${file}`, import.meta.url), 'utf8'));
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      }
      const configured = (page: string, domain: string | null) =>
        client.query(
          `INSERT INTO event_log (type, page, page_hash, at, data) VALUES ('page.configured', $1, 0, now(), $2)`,
          [
            page,
            JSON.stringify({
              title: page,
              plan: 'pro',
              custom_domain: domain,
              auth_token_hash: null,
              blocked: false,
            }),
          ],
        );
      await configured('moved', 'Status.Old.test');
      await configured('moved', 'status.new.test');
      await configured('dropped', 'status.dropped.test');
      await configured('dropped', null);
      await configured('gone', 'status.gone.test');
      await configured('first', 'status.shared.test');
      await configured('second', 'status.shared.test');
      await configured('plain', null);
      await client.query(`INSERT INTO pages (slug, deleted) VALUES
        ('moved', false), ('dropped', false), ('gone', true), ('first', false), ('second', false), ('plain', false)`);

      expect(await migrate(beforeUrl)).toEqual([
        '0004_checks_by_monitor.sql',
        '0005_log_origin.sql',
        '0006_page_custom_domains.sql',
        '0007_check_retention.sql',
        '0008_dead_letters_once.sql',
        '0009_event_ids_retention.sql',
        '0010_integrations.sql',
        '0011_notifications.sql',
        '0012_notify_core.sql',
        '0013_notify_mail.sql',
        '0014_subscribers_by_page_id.sql',
      ]);
      const pages = await client.query<{ slug: string; custom_domain: string | null }>(
        'SELECT slug, custom_domain FROM pages ORDER BY slug',
      );
      expect(pages.rows).toEqual([
        { slug: 'dropped', custom_domain: null },
        { slug: 'first', custom_domain: null },
        { slug: 'gone', custom_domain: null },
        { slug: 'moved', custom_domain: 'status.new.test' },
        { slug: 'plain', custom_domain: null },
        { slug: 'second', custom_domain: 'status.shared.test' },
      ]);
    } finally {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${before}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
