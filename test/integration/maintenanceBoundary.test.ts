// A maintenance window boundary the clock passes is in every answer that names an instant at
// once: between the boundary and the due render that stores it, charts, the embed and the badge
// answer what a clean rebuild at that instant answers, and the render changes none of their bytes.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { badgeSvg } from '../../src/embed/badgeSvg.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const START = Date.parse('2026-11-22T11:00:00Z');
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const log = pino({ level: 'silent' });
const config = () => loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
const PATHS = ['/api/status/edge/charts', '/api/embed/status?slug=edge&inc=1', '/badge/edge.svg'];

const maintenance = (id: string, start: number, end: number) => ({
  type: 'maintenance.scheduled',
  page: 'edge',
  at: iso(START - 30 * MINUTE),
  data: { maintenance_id: id, title: `Upgrade ${id}`, scheduled_start: iso(start), scheduled_end: iso(end) },
});

describe('maintenance window boundaries between renders', () => {
  let env: ProjectorEnv;

  /** Every answer of PATHS from an API process whose clock reads `at`. */
  const answersAt = async (at: number) => {
    const app = buildApp({
      redis: env.redis,
      prefix: env.prefix,
      config: config(),
      log,
      clock: () => new Date(at),
    });
    const out = [];
    for (const path of PATHS) {
      const res = await request(app).get(path).buffer(true);
      const body = Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.text; // the badge's SVG
      out.push({ path, status: res.status, body, etag: res.headers['etag'] });
    }
    return out;
  };

  /** What a clean rebuild at `instant` answers, read by a process whose clock reads `at`. */
  const rebuildsAnswers = async (instant: number, at: number) => {
    env.setNow(instant);
    await rebuild(env.deps, { prefix: env.prefix, partitions: 1, graceMs: 0 });
    return answersAt(at);
  };

  const expectOverall = (
    answers: Awaited<ReturnType<typeof answersAt>>,
    instant: number,
    overall: string,
  ) => {
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ timestamp: instant / 1000, overall });
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ overall });
    expect(answers[2]!.body).toBe(badgeSvg(overall as Parameters<typeof badgeSvg>[0]));
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 1, now: iso(START + 5_000) });
    await env.append(
      pageConfigured('edge', { plan: 'business' }, iso(START - 60 * MINUTE)),
      monitorConfigured('edge', 1, { name: 'API', impact: 'major' }, iso(START - 60 * MINUTE)),
      check('edge', 1, iso(START - MINUTE), 'up', 100),
      maintenance('m1', START + 2 * MINUTE, START + 4 * MINUTE),
      maintenance('m2', START + 6 * MINUTE + 2_000, START + 8 * MINUTE),
    );
    await env.project();
  });
  afterAll(async () => {
    await env.close();
  });

  it('answers a window that starts at a minute boundary from its first second, before the due render', async () => {
    const boundary = START + 2 * MINUTE;
    const between = await answersAt(boundary + 1_000); // the minute's render has not run
    expectOverall(between, boundary, 'under_maintenance');
    env.setNow(boundary + 3_000);
    await env.project(); // the due render
    expect(await answersAt(boundary + 1_000)).toEqual(between);
    expect(await rebuildsAnswers(boundary, boundary + 1_000)).toEqual(between);
  });

  it('answers a window that ends at a minute boundary from its first second, before the due render', async () => {
    const boundary = START + 4 * MINUTE;
    const between = await answersAt(boundary + 1_000);
    expectOverall(between, boundary, 'operational');
    env.setNow(boundary + 3_000);
    await env.project();
    expect(await answersAt(boundary + 1_000)).toEqual(between);
    expect(await rebuildsAnswers(boundary, boundary + 1_000)).toEqual(between);
  });

  it('answers an instant before a boundary the render already passed as that instant was', async () => {
    const minute = START + 6 * MINUTE; // the window starts two seconds into the minute
    env.setNow(minute + 3_000);
    await env.project(); // the due render, after the boundary
    const after = await answersAt(minute + 4_000); // names the minute's start: before the window
    expectOverall(after, minute, 'operational');
    expect(await rebuildsAnswers(minute, minute + 4_000)).toEqual(after);
  });
});
