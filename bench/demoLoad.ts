// `npx tsx bench/demoLoad.ts`: how long `npm start` takes to load the demo and project it, in a
// fresh database and Redis prefix (the 60 s budget of the demo).
import { pino } from 'pino';
import { loadDemo } from '../src/demo/loadDemo.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { projectionStatus } from '../src/projector/projectionStatus.ts';
import { startBenchEnv } from './benchEnv.ts';

const env = await startBenchEnv();
try {
  const clock = () => new Date();
  const started = performance.now();
  const loaded = await loadDemo({ db: env.db, clock, progress: process.stderr });
  const loadedAt = performance.now();
  // What the first worker job does on an empty Redis (projectPartition → ensureModels → rebuild).
  await rebuild(
    {
      db: env.db,
      redis: env.redis,
      clock,
      urls: { baseUrl: 'http://localhost:3000', pageUrlTemplate: '{base_url}/s/{slug}' },
      batchSize: 5000,
      log: pino({ level: 'silent' }),
    },
    { prefix: env.prefix, partitions: 4, graceMs: 0 },
  );
  const done = performance.now();
  const status = await projectionStatus(env.db, env.redis, env.prefix);
  console.log(
    JSON.stringify({
      events: loaded.events,
      loadSeconds: (loadedAt - started) / 1000,
      appendRate: Math.round(loaded.events / ((loadedAt - started) / 1000)),
      projectSeconds: (done - loadedAt) / 1000,
      projectRate: Math.round(loaded.events / ((done - loadedAt) / 1000)),
      totalSeconds: (done - started) / 1000,
      lag: status.lag_events,
    }),
  );
} finally {
  await env.close();
}
