// One PostgreSQL and one Redis per run; migrations applied once into a template database that
// every test file clones (CREATE DATABASE … TEMPLATE), so files run in parallel in isolation.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, withDatabase } from '../../src/eventLog/migrate.ts';
import { startServices } from './services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    redisUrl: string;
    templateDb: string;
    runId: string;
  }
}

const dropDatabases = async (serverUrl: string, prefix: string) => {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${prefix}%`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
};

export default async function setup(project: TestProject) {
  const services = await startServices();
  const runId = randomBytes(4).toString('hex');
  const templateDb = `sp_t${runId}_template`;
  await migrate(withDatabase(services.pgServerUrl, templateDb));
  project.provide('pgServerUrl', services.pgServerUrl);
  project.provide('redisUrl', services.redisUrl);
  project.provide('templateDb', templateDb);
  project.provide('runId', runId);
  return async () => {
    await dropDatabases(services.pgServerUrl, `sp_t${runId}`);
    await services.stop();
  };
}
