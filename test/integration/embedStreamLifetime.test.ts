// A real API process (the production build's `serve`) whose live streams reach their lifetime
// while their clients read nothing and megabytes wait unsent: each stream is ended once, nothing
// is written to it after its end, and the process keeps serving.
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDist, startDist, type Build, type DistProcess } from '../support/distProcess.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { freePort } from '../support/redisServer.ts';

const STREAMS = 10;
const LIFETIME_S = 4;

/** A stream whose client sends its request and then never reads: what it is sent piles up. */
const nonReadingStream = (port: number, path: string): Socket => {
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`),
  );
  socket.pause();
  socket.on('error', () => {});
  return socket;
};

// 300 active incidents with 500-character titles: each event of an inc=1 stream is ~200 KB, so
// the sockets' buffers fill within a few changes and the rest waits in the process.
const incidents = Array.from({ length: 300 }, (_, i) => ({
  type: 'incident.opened',
  page: 'acme',
  at: '2026-11-01T00:00:00Z',
  data: { incident_id: `inc-${i}`, title: `${i} ${'x'.repeat(490)}`, message: 'Investigating' },
}));

describe('live streams reaching their lifetime with bytes unsent', () => {
  let build: Build;
  let env: ProjectorEnv;
  let server: DistProcess | undefined;

  beforeAll(async () => {
    [build, env] = await Promise.all([buildDist(), startProjectorEnv({ now: new Date().toISOString() })]);
    await projectAll(
      env,
      (
        await env.append(
          pageConfigured('acme', { plan: 'growth' }),
          monitorConfigured('acme', 1, { name: 'API', impact: 'major' }),
          ...incidents,
        )
      ).accepted,
    );
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await env.close();
    await build.remove();
  });

  it('ends each stream once, writes nothing after, and the process keeps serving', async () => {
    const port = await freePort();
    server = startDist(build.main, ['serve'], {
      DATABASE_URL: env.t.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: env.prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      INGEST_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '1',
      LIVE_STREAM_MAX_UNSENT_KB: '16384',
      LIVE_STREAM_MAX_LIFETIME_S: String(LIFETIME_S),
      LIVE_STREAM_HEARTBEAT_S: '1',
    });
    await server.waitForLine((line) => line.msg === 'public API listening');
    let stderr = '';
    server.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const sockets = Array.from({ length: STREAMS }, () =>
      nonReadingStream(port, '/api/embed/stream?slug=acme&inc=1'),
    );
    try {
      // The page changes as fast as it is projected, through the lifetime and several beats past it.
      const until = Date.now() + (LIFETIME_S + 5) * 1000;
      for (let i = 0; Date.now() < until && server.child.exitCode === null; i += 1) {
        env.setNow(Date.now());
        await projectAll(
          env,
          (await env.append(check('acme', 1, new Date().toISOString(), i % 2 === 0 ? 'down' : 'up')))
            .accepted,
        );
        await sleep(100);
      }
      const answer = await fetch(`http://127.0.0.1:${port}/api/embed/status?slug=acme`).catch(
        (error: unknown) => error,
      );
      expect([server.child.exitCode, server.child.signalCode, (answer as Response).status], stderr).toEqual([
        null,
        null,
        200,
      ]);
      expect(server.lines().filter((line) => line.level !== undefined && Number(line.level) >= 50)).toEqual(
        [],
      );
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
