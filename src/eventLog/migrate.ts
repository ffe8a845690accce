// Forward-only SQL migrations, applied in filename order and recorded in schema_migrations.
// Creates the database first when the server does not have it yet.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

const databaseName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

const withDatabase = (url: string, name: string): string => {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(name)}`;
  return next.toString();
};

/** Creates the database named in `url` if the server lacks it. */
const ensureDatabase = async (url: string): Promise<boolean> => {
  const name = databaseName(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    return true;
  } catch (error) {
    // Two processes racing to create it: the loser finds it created.
    const code = (error as { code?: string }).code;
    if (code === '42P04' || code === '23505') return false;
    throw error;
  } finally {
    await admin.end();
  }
};

/** Applies pending migrations; returns the names applied. Safe to run concurrently. */
export const migrate = async (url: string): Promise<string[]> => {
  await ensureDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7421001)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
    const applied: string[] = [];
    for (const file of files.filter((f) => !done.has(f))) {
      const text = await readFile(migrationsDir + file, 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(text);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(7421001)').catch(() => undefined);
    await client.end();
  }
};

export { withDatabase };
