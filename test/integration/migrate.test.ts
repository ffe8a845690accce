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
    ]);
    expect(await migrate(url)).toEqual([]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      expect(tables.rows.map((r) => r.name)).toEqual([
        'dead_letters',
        'event_ids',
        'event_log',
        'event_log_checks',
        'event_log_other',
        'incidents',
        'log_origin',
        'maintenances',
        'monitors',
        'pages',
        'schema_migrations',
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
    ]);
    const admin = new pg.Client({ connectionString: withDatabase(inject('pgServerUrl'), 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${other}" WITH (FORCE)`);
    await admin.end();
  });
});
