// The gap-free reader sees a row only once every transaction that started before it has ended,
// on the whole PostgreSQL server (pg_snapshot_xmin is cluster-wide). Tests that read the log right
// after appending wait for that horizon first, so another database's work on a shared server
// (parallel test files, other services) cannot make their exact assertions flaky.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** Waits until every row now in `event_log` is below the reader's horizon. */
export const waitForLogHorizon = async (url: string, attempts = 600): Promise<void> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < attempts; i += 1) {
      const { rows } = await client.query<{ ok: boolean }>(`
        SELECT coalesce((SELECT transaction_id FROM event_log ORDER BY transaction_id DESC LIMIT 1)
                        < pg_snapshot_xmin(pg_current_snapshot()), true) AS ok`);
      if (rows[0]?.ok) return;
      await sleep(20);
    }
    throw new Error('the log horizon did not pass the last append');
  } finally {
    await client.end();
  }
};
