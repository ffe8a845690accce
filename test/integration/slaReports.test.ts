// SLA reports end to end (sla-reports.md): a page in Europe/Berlin with a target of 99.95, two
// maintenance windows (one started early and completed early, one on one monitor only), and a
// monitor broken twice in October, once across the end of the month. Every figure below is worked
// out by hand in the comments. Also: the CSV, the report page, a backfilled check changing past
// reports, a time-zone change re-deriving them, and a private page's gate.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { listenApi } from '../support/testServers.ts';
import { launchChromium } from '../support/browser.ts';
import { SlaReportBody } from '../../src/contract/slaSchemas.ts';

const NOW = '2026-11-22T12:00:00Z';
const ev = (type: string, page: string, at: string, data: object) => ({ type, page, at, data });

describe('SLA reports', () => {
  let env: ProjectorEnv;
  let server: Server;
  const get = (path: string) => request(server).get(path);

  beforeAll(async () => {
    env = await startProjectorEnv({ now: NOW, partitions: 2 });
    server = listenApi(env);
    const at = '2026-09-01T00:00:00Z';
    await env.append(
      pageConfigured('acme', { time_zone: 'Europe/Berlin', sla_target: 99.95 }, at),
      monitorConfigured('acme', 11, { name: 'API', position: 1 }, at),
      monitorConfigured('acme', 12, { name: '=Web', position: 2, sla_target: 99.5 }, at),
      // M1, the whole page: scheduled 01:00–03:00, started 00:45, completed 02:30 → 6,300 s.
      ev('maintenance.scheduled', 'acme', at, {
        maintenance_id: 'm1',
        title: 'Database upgrade',
        scheduled_start: '2026-10-05T01:00:00Z',
        scheduled_end: '2026-10-05T03:00:00Z',
      }),
      ev('maintenance.started', 'acme', '2026-10-05T00:45:00Z', { maintenance_id: 'm1' }),
      ev('maintenance.completed', 'acme', '2026-10-05T02:30:00Z', { maintenance_id: 'm1' }),
      // M2, API only: 08:20–08:30, inside the first failure → 600 s.
      ev('maintenance.scheduled', 'acme', at, {
        maintenance_id: 'm2',
        title: 'Certificate rotation',
        scheduled_start: '2026-10-10T08:20:00Z',
        scheduled_end: '2026-10-10T08:30:00Z',
        components: ['API'],
      }),
      // Failure 1: 08:00–08:40 (2,400 s, 1,800 s counted). Failure 2: Oct 31 22:20 –
      // 23:50 = 90 min: 40 min in October (Berlin's November starts at 23:00 UTC), 50 in November;
      // in UTC all 90 min are October's.
      check('acme', 11, '2026-10-10T08:00:00Z', 'down'),
      check('acme', 11, '2026-10-10T08:40:00Z', 'up'),
      check('acme', 11, '2026-10-31T22:20:00Z', 'down'),
      check('acme', 11, '2026-10-31T23:50:00Z', 'up'),
      check('acme', 11, '2026-11-22T11:59:00Z', 'up'),
    );
    await env.project();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  it('answers October to the second (745 h month, maintenance left out)', async () => {
    const res = await get('/api/status-pages/acme/sla?period=2026-10');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['etag']).toMatch(/^"/);
    SlaReportBody.parse(res.body); // the OpenAPI document's schema, strictly
    const body = res.body as { monitors: { daily: { date: string }[] }[] };
    const { monitors, ...head } = body;
    expect(head).toEqual({
      page: 'acme',
      period: '2026-10',
      time_zone: 'Europe/Berlin',
      start: '2026-09-30T22:00:00Z',
      end: '2026-10-31T23:00:00Z',
      complete: true,
      as_of: '2026-10-31T23:00:00Z',
      exclude_maintenance: true,
      met_all: false,
    });
    const [api, web] = monitors as unknown as Record<string, unknown>[];
    // counted = 2,682,000 − 6,900 = 2,675,100 s; down 1,800 + 2,400 = 4,200 s.
    expect({ ...api, daily: undefined }).toEqual({
      monitor_id: 11,
      monitor_name: 'API',
      sla_target: 99.95,
      total_seconds: 2682000,
      excluded_seconds: 6900,
      downtime_seconds: 4200,
      uptime_percentage: 99.843, // 100 × 2,670,900 ÷ 2,675,100 = 99.84299…
      incident_count: 2,
      mtbf_seconds: 1335450,
      mttr_seconds: 2100,
      longest_outage_seconds: 2400,
      error_budget_seconds: 1337, // ⌊2,675,100 × 0.05 ÷ 100⌋
      error_budget_remaining_seconds: -2863,
      met: false,
      daily: undefined,
    });
    expect({ ...web, daily: undefined }).toMatchObject({
      monitor_id: 12,
      monitor_name: '=Web',
      sla_target: 99.5,
      excluded_seconds: 6300,
      downtime_seconds: 0,
      uptime_percentage: 100,
      incident_count: 0,
      mtbf_seconds: 2675700,
      error_budget_seconds: 13378, // ⌊2,675,700 × 0.5 ÷ 100⌋
      met: true,
    });
    const daily = (api as { daily: Record<string, unknown>[] }).daily;
    expect(daily).toHaveLength(31);
    expect(daily[4]).toEqual({
      date: '2026-10-05',
      total_seconds: 86400,
      excluded_seconds: 6300,
      downtime_seconds: 0,
      uptime_percentage: 100,
    });
    expect(daily[9]).toEqual({
      date: '2026-10-10',
      total_seconds: 86400,
      excluded_seconds: 600,
      downtime_seconds: 1800,
      uptime_percentage: 97.902, // 100 × 84,000 ÷ 85,800 = 97.9020…
    });
    expect(daily[24]).toMatchObject({ date: '2026-10-25', total_seconds: 90000 });
    expect(daily[30]).toMatchObject({ date: '2026-10-31', downtime_seconds: 2400 });
  });

  it('counts a failure across the month once in the quarter, with its whole length', async () => {
    const nov = (await get('/api/status-pages/acme/sla')).body as Record<string, unknown>;
    expect(nov).toMatchObject({
      period: '2026-11',
      complete: false,
      as_of: '2026-11-22T12:00:00Z',
      start: '2026-10-31T23:00:00Z',
      end: '2026-11-30T23:00:00Z',
    });
    const [api] = nov['monitors'] as Record<string, unknown>[];
    expect(api).toMatchObject({ total_seconds: 1861200, downtime_seconds: 3000, incident_count: 1 });
    const q4 = await get('/api/status-pages/acme/sla?period=2026-Q4');
    expect(q4.headers['cache-control']).toBe('public, max-age=60');
    const [q4api] = (q4.body as { monitors: Record<string, unknown>[] }).monitors;
    expect(q4api).toMatchObject({
      total_seconds: 2682000 + 1861200,
      downtime_seconds: 7200,
      incident_count: 2,
      longest_outage_seconds: 5400,
    });
    expect((q4api!['daily'] as unknown[]).length).toBe(31 + 22);
  });

  it('serves the CSV by RFC 4180 with formula injection defused', async () => {
    const res = await get('/api/status-pages/acme/sla?period=2026-10&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="acme-sla-2026-10.csv"');
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(
      'monitor_id,monitor_name,period,start,end,sla_target,total_seconds,excluded_seconds,downtime_seconds,uptime_percentage,incident_count,mtbf_seconds,mttr_seconds,longest_outage_seconds,error_budget_seconds,error_budget_remaining_seconds,met',
    );
    expect(lines[1]).toBe(
      '11,API,2026-10,2026-09-30T22:00:00Z,2026-10-31T23:00:00Z,99.95,2682000,6900,4200,99.843,2,1335450,2100,2400,1337,-2863,false',
    );
    expect(lines[2]!.startsWith("12,'=Web,2026-10,")).toBe(true);
    expect(lines.at(-1)).toBe('');
    const again = await get('/api/status-pages/acme/sla?period=2026-10&format=csv').set(
      'If-None-Match',
      String(res.headers['etag']),
    );
    expect([again.status, again.text]).toEqual([304, '']);
  });

  it('refuses bad periods and formats with the contract texts', async () => {
    for (const period of ['2026-13', '2026-Q5', '26', '2026-12', '2027', '1999', '2022-05', 'x'])
      expect([period, (await get(`/api/status-pages/acme/sla?period=${period}`)).body]).toEqual([
        period,
        { error: 'invalid period' },
      ]);
    const bad = await get('/api/status-pages/acme/sla?period=2026-10&format=xml');
    expect([bad.status, bad.body]).toEqual([400, { error: 'invalid parameters' }]);
    expect((await get('/api/status-pages/nope/sla')).body).toEqual({ error: 'not found' });
    expect((await get('/api/status-pages/acme/sla?period=2023-01')).status).toBe(200);
  });

  it('shows the printable report, linked to its CSV', async () => {
    const res = await get('/s/acme/sla/2026-10');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('SLA report, October 2026');
    expect(res.text).toContain('href="/api/status-pages/acme/sla?period=2026-10&amp;format=csv"');
    expect(res.text).toContain('@page{size:A4');
    expect((await get('/s/acme/sla/2027-01')).status).toBe(404);
  });

  it('prints the report in the language ?lang= names, instants in UTC, the figures through Intl', async () => {
    const de = await get('/s/acme/sla/2026-10?lang=de');
    expect(de.status).toBe(200);
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toContain('acme — SLA-Bericht, Oktober 2026');
    expect(de.text).toContain(
      'Zeitraum 2026-10 in Europe/Berlin: von 30. Sept. 2026, 22:00 bis 31. Okt. 2026, 23:00 (UTC)',
    );
    expect(de.text).toContain('<th scope="col">Verfügbarkeit</th>');
    expect(de.text).toContain('Samstag, 31. Oktober');
    expect(de.text).toContain('href="/s/acme?lang=de"');
    const ja = await get('/s/acme/sla/2026-Q4?lang=ja');
    expect(ja.text).toContain('acme — SLA レポート、2026 年 第 4 四半期 (10月～12月)');
    // The page's own language (en here) needs no parameter, and the status link carries none.
    const en = await get('/s/acme/sla/2026-10');
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('href="/s/acme"');
    const bad = await get('/s/acme/sla/2026-10?lang=it');
    expect([bad.status, bad.headers['cache-control']]).toEqual([400, 'no-store']);
    expect(bad.text).toContain('<h1>Language not available</h1>');
    expect(bad.text).toContain('<a href="?lang=pt-BR" hreflang="pt-BR" lang="pt-BR">Português (Brasil)</a>');
  });

  it('changes March, Q1 and the year when a check is backfilled into March, and follows a zone change', async () => {
    const before = (await get('/api/status-pages/acme/sla?period=2026')).body as {
      monitors: Record<string, number>[];
    };
    await env.append(
      check('acme', 11, '2026-03-31T21:30:00Z', 'down'), // Berlin: 23:30 CEST, DST since Mar 29
      check('acme', 11, '2026-03-31T22:30:00Z', 'up'), // 00:30 on April 1st
    );
    await env.project();
    const march = (await get('/api/status-pages/acme/sla?period=2026-03')).body as {
      monitors: Record<string, unknown>[];
    };
    expect(march.monitors[0]).toMatchObject({
      total_seconds: 743 * 3600,
      downtime_seconds: 1800,
      incident_count: 1,
    });
    const q1 = (await get('/api/status-pages/acme/sla?period=2026-Q1')).body as {
      monitors: Record<string, unknown>[];
    };
    expect(q1.monitors[0]).toMatchObject({ downtime_seconds: 1800, incident_count: 1 });
    const q2 = (await get('/api/status-pages/acme/sla?period=2026-Q2')).body as {
      monitors: Record<string, unknown>[];
    };
    expect(q2.monitors[0]).toMatchObject({ downtime_seconds: 1800, incident_count: 1 });
    const year = (await get('/api/status-pages/acme/sla?period=2026')).body as {
      monitors: Record<string, number>[];
    };
    expect(year.monitors[0]!['downtime_seconds']).toBe(before.monitors[0]!['downtime_seconds']! + 3600);
    expect(year.monitors[0]!['incident_count']).toBe(before.monitors[0]!['incident_count']! + 1);

    await env.append(pageConfigured('acme', { time_zone: 'UTC', sla_target: 99.95 }, '2026-11-22T11:59:30Z'));
    await env.project();
    const utc = (await get('/api/status-pages/acme/sla?period=2026-03')).body as {
      monitors: Record<string, unknown>[];
    };
    expect(utc).toMatchObject({
      time_zone: 'UTC',
      start: '2026-03-01T00:00:00Z',
      end: '2026-04-01T00:00:00Z',
    });
    expect(utc.monitors[0]).toMatchObject({ total_seconds: 744 * 3600, downtime_seconds: 3600 }); // all of it in UTC's March
    const oct = (await get('/api/status-pages/acme/sla?period=2026-10')).body as {
      monitors: Record<string, unknown>[];
    };
    expect(oct.monitors[0]).toMatchObject({ downtime_seconds: 1800 + 90 * 60, incident_count: 2 });
  });

  it('gates a private page like availability', async () => {
    const token = 'a-private-token-of-the-page';
    await env.append(pageConfigured('hush', { auth_token: token }), monitorConfigured('hush', 21));
    await env.project();
    expect((await get('/api/status-pages/hush/sla')).body).toEqual({ error: 'forbidden' });
    const ok = await get(`/api/status-pages/hush/sla?auth_token=${token}`);
    expect([ok.status, ok.headers['cache-control']]).toEqual([200, 'private, no-store']);
    expect((await get('/s/hush/sla/2026-11')).status).toBe(401);
    const report = await get(`/s/hush/sla/2026-11?auth_token=${token}`);
    expect(report.status).toBe(200);
    // Its CSV link carries the token, so the download opens too.
    const csvLink = /href="([^"]*format=csv[^"]*)"/.exec(report.text)?.[1]?.replaceAll('&amp;', '&');
    expect(csvLink).toBe(`/api/status-pages/hush/sla?period=2026-11&format=csv&auth_token=${token}`);
    expect((await get(csvLink!)).status).toBe(200);
  });

  it('follows the clock by the minute: the current month grows, and completes when the next one starts', async () => {
    env.setNow('2026-11-22T12:02:10.500Z');
    await env.project();
    const now = (await get('/api/status-pages/acme/sla')).body as Record<string, unknown>;
    expect(now).toMatchObject({ period: '2026-11', complete: false, as_of: '2026-11-22T12:02:00Z' });
    env.setNow('2026-12-01T00:00:05Z'); // the page is in UTC since the zone change above
    await env.project();
    const done = await get('/api/status-pages/acme/sla?period=2026-11');
    expect(done.headers['cache-control']).toBe('public, max-age=3600');
    expect(done.body).toMatchObject({ complete: true, as_of: '2026-12-01T00:00:00Z' });
    expect((await get('/api/status-pages/acme/sla')).body).toMatchObject({
      period: '2026-12',
      complete: false,
    });
  });
});

describe('the printable report in Chromium', { timeout: 120_000 }, () => {
  let env: ProjectorEnv;
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: NOW, partitions: 1 });
    server = listenApi(env);
    browser = await launchChromium();
    const at = '2025-12-01T00:00:00Z';
    await env.append(
      pageConfigured('print', { time_zone: 'Europe/Berlin', sla_target: 99.95 }, at),
      monitorConfigured('print', 31, { name: 'API' }, at),
      monitorConfigured('print', 32, { name: 'Web' }, at),
      check('print', 31, '2026-10-31T22:20:00Z', 'down'),
      check('print', 31, '2026-10-31T23:50:00Z', 'up'),
    );
    await env.project();
  });
  afterAll(async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  it('is linked from the status page: this month and the last', async () => {
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${String(port)}/s/print`);
    await page.waitForSelector('.sla-links a');
    const links = await page.$$eval('.sla-links a', (as) =>
      as.map((a) => [a.getAttribute('href'), a.textContent]),
    );
    await page.close();
    expect(links).toEqual([
      ['/s/print/sla/2026-11', 'November 2026 (so far)'],
      ['/s/print/sla/2026-10', 'October 2026'],
    ]);
    // A language chosen in the address goes with the links.
    const german = await browser.newPage();
    await german.goto(`http://127.0.0.1:${String(port)}/s/print?lang=de`);
    await german.waitForSelector('.sla-links a');
    expect(
      await german.$$eval('.sla-links a', (as) => as.map((a) => [a.getAttribute('href'), a.textContent])),
    ).toEqual([
      ['/s/print/sla/2026-11?lang=de', 'November 2026 (bisher)'],
      ['/s/print/sla/2026-10?lang=de', 'Oktober 2026'],
    ]);
    await german.close();
  });

  it('prints the year on A4 pages with no table row cut in two', async () => {
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${String(port)}/s/print/sla/2026`);
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    await page.close();
    const file = join(mkdtempSync(join(tmpdir(), 'sla-')), 'report.pdf');
    writeFileSync(file, pdf);
    expect(pdf.toString('latin1')).toMatch(/MediaBox \[0 0 59[45]\.\d+ 841\.\d+\]/); // A4: 595 × 842 pt
    const pages = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f');
    // Each daily row is two lines (the date, then its weekday): both must land on one page.
    const where = (pattern: RegExp) =>
      pages.flatMap((text, p) => [...text.matchAll(pattern)].map((m) => [p, m[1]!] as const));
    const dates = where(/^\s*(\d{4}-\d{2}-\d{2})\b/gm);
    const names = where(/^\s*((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \w+ \d+)/gm);
    expect(dates).toHaveLength(2 * 326); // two monitors, January 1st to November 22nd
    expect(names.map(([p]) => p)).toEqual(dates.map(([p]) => p));
    expect(new Set(dates.map(([p]) => p)).size).toBeGreaterThan(10);
  });
});
