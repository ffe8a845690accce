// The public status page in a real browser (headless Chromium) over a page built by the real
// projector: what it shows must be what the public API answers. `npm run screenshots` also
// writes the README's screenshots (docs/screenshots/) from these same pages.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { translate } from '../../projections/locale/catalogues.ts';
import { formatsFor } from '../../projections/locale/format.ts';
import { LOCALES } from '../../projections/locale/locales.ts';
import type { MessageKey } from '../../projections/locale/messages/en.ts';
import { launchChromium, seriousViolations, serveOnLoopback } from '../support/browser.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';
import { FIXTURE_NOW, MONITORS, statusPageEvents, VAULT_TOKEN } from '../support/statusPageFixture.ts';

const SHOTS = process.env['SCREENSHOTS']; // a directory: write the screenshots there
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const { duration, percent: pct } = formatsFor('en');
const en = translate('en');
/** The words of a state, as the catalogue has them: `word('overall', 'operational')`. */
const word = (group: string, state: string, locale = en) => locale.t(`${group}.${state}` as MessageKey);

// Generous timeouts: a browser on a busy two-core machine can be slow, never wrong.
describe('the status page in a browser', { timeout: 120_000 }, () => {
  let env: ProjectorEnv;
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  let browser: Browser;
  const api = async (path: string) => (await fetch(`${server.origin}${path}`)).json();

  const errors = new Map<Page, string[]>();
  const referers = new Map<Page, string[]>(); // the Referer of every request the page made
  const open = async (path: string, options: BrowserContextOptions = DESKTOP): Promise<Page> => {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', ...options });
    // A Content-Security-Policy violation is an error like any other (the page has none).
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`csp: ${event.violatedDirective} ${event.blockedURI}`),
      ),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(45_000); // the machine may be busy: wait longer than Playwright's 30 s
    errors.set(page, []);
    referers.set(page, []);
    page.on('request', (request) => referers.get(page)?.push(request.headers()['referer'] ?? ''));
    page.on('pageerror', (error) => errors.get(page)?.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.get(page)?.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => errors.get(page)?.push(`failed: ${request.url()}`));
    await page.goto(`${server.origin}${path}`);
    return page;
  };
  /** Closes the page; a script error, a console error or a failed request fails the test. */
  const done = async (page: Page, expected: string[] = []) => {
    expect(errors.get(page)).toEqual(expected);
    await page.context().close();
  };
  /** Waits until every part has its data: bars, both charts of every row, lists. */
  const loaded = async (page: Page, monitors: number) => {
    await page
      .waitForFunction(
        (n) =>
          document.querySelectorAll('.monitor .bar').length === n * 90 &&
          document.querySelectorAll('.monitor .line-chart:not(.pending)').length === n * 2 &&
          document.querySelector('.history-list .list-scope') !== null &&
          document.querySelector('.tab-panel .items > *') !== null,
        monitors,
      )
      .catch((error: unknown) => {
        throw new Error(`not loaded; page errors: ${JSON.stringify(errors.get(page))}`, { cause: error });
      });
  };
  const shoot = async (page: Page, name: string, fullPage: boolean) => {
    const png = await page.screenshot({ fullPage });
    expect(png.length).toBeGreaterThan(10_000);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(`${SHOTS}/${name}.png`, png);
    }
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: FIXTURE_NOW });
    const events = statusPageEvents();
    for (let i = 0; i < events.length; i += 1000) await env.append(...events.slice(i, i + 1000)); // short transactions: see projectorEnv.ts
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl });
    server = await serveOnLoopback(appOf(env, config));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    await env.close();
  });

  it('shows the overall status, every monitor with its uptime, the active incident, maintenance and the calendar', async () => {
    const page = await open('/s/acme');
    await loaded(page, MONITORS.length);
    const charts = await api('/api/status/acme/charts');
    expect(await page.title()).toBe('Acme Cloud status');
    expect(await page.locator('.overall').getAttribute('data-overall')).toBe(charts.overall);
    expect(await page.locator('.overall-label').textContent()).toBe(word('overall', charts.overall));

    const rows = await page.$$eval('.monitor', (items) =>
      items.map((row) => ({
        name: row.querySelector('.monitor-name')?.textContent,
        state: row.querySelector('.state')?.textContent,
        uptime: row.querySelector('.uptime-figure')?.textContent,
        today: row.querySelector('.chart figcaption span')?.textContent,
      })),
    );
    const expected = [];
    for (const monitor of charts.monitors) {
      const figures = await api(
        `/api/status-pages/acme/monitors/${String(monitor.id)}/availability?period=90d`,
      );
      expected.push({
        name: monitor.name,
        state: word('monitor', monitor.state),
        uptime: `${pct(figures.availability.uptime_percentage)} uptime`,
        today: `Today (UTC) · avg ${new Intl.NumberFormat('en-US').format(monitor.avg_response_time_today)} ms`,
      });
    }
    expect(rows).toEqual(expected);
    expect(rows.map((row) => row.name)).toEqual(MONITORS.map((m) => m.name));

    const incidents = await api('/api/status-pages/acme/incidents');
    const active = incidents.incidents.find((i: { state: string }) => i.state !== 'resolved');
    const notices = page.locator('.notices');
    await expect.poll(() => notices.textContent()).toContain(active.title);
    expect(await notices.textContent()).toContain(active.updates.at(-1).message);
    const running = await api('/api/status-pages/acme/maintenances?status=in_progress');
    const scheduled = await api('/api/status-pages/acme/maintenances?status=scheduled');
    expect(await page.locator('[aria-labelledby=running-title] h3').allTextContents()).toEqual(
      running.maintenances.map((m: { title: string }) => m.title),
    );
    expect(await page.locator('[aria-labelledby=upcoming-title] h3').allTextContents()).toEqual(
      scheduled.maintenances.map((m: { title: string }) => m.title),
    );

    const counts = await api('/api/status-pages/acme/incidents/daily-counts?month=2026-11');
    const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    expect(await page.locator('.month-title').textContent()).toBe('November 2026');
    expect(
      await page
        .locator('.calendar button.day')
        .evaluateAll((days) => days.map((d) => d.getAttribute('aria-label'))),
    ).toEqual(
      Object.entries(counts.counts as Record<string, number>)
        .filter(([, n]) => n > 0)
        .map(
          ([date, n]) =>
            `${long.format(new Date(`${date}T00:00:00Z`))}: ${String(n)} ${n === 1 ? 'incident' : 'incidents'}`,
        ),
    );
    const month = await api('/api/status-pages/acme/incidents/filter?month=2026-11');
    expect(await page.locator('.history-list .incident h3').allTextContents()).toEqual(
      month.incidents.map((i: { title: string }) => i.title),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop', true);
    await done(page);
  });

  it('switches a monitor between availability periods', async () => {
    const page = await open('/s/acme');
    await loaded(page, MONITORS.length);
    const row = page.locator('.monitor').nth(1); // API: an outage 20 days ago
    await row.getByRole('button', { name: 'Availability details' }).click();
    for (const [tab, period] of [
      ['30 days', '30d'],
      ['7 days', '7d'],
      ['1 year', '1y'],
    ] as const) {
      await row.getByRole('tab', { name: tab }).click();
      const { availability: a, daily_breakdown: days } = await api(
        `/api/status-pages/acme/monitors/2/availability?period=${period}`,
      );
      const stats = row.locator('.stats');
      await expect.poll(() => row.locator('.detail .bar').count()).toBe(days.length);
      expect(
        await stats.locator('dd').evaluateAll((dds) => dds.map((dd) => dd.firstChild?.textContent)),
      ).toEqual([
        pct(a.uptime_percentage),
        duration(a.downtime_seconds),
        String(a.incident_count),
        duration(a.mtbf_seconds),
        duration(a.mttr_seconds),
      ]);
    }
    // The keyboard walks the daily bars of the 90-day strip and tells the day's figures.
    const bars = page.locator('.monitor').nth(1).locator('.bars').first();
    await bars.focus();
    await page.keyboard.press('Home');
    const oldest = (
      await api('/api/status-pages/acme/monitors/2/availability?period=90d')
    ).daily_breakdown.at(-2);
    expect(await bars.getAttribute('aria-valuetext')).toBe(
      `${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${oldest.date}T00:00:00Z`))}: ${pct(oldest.uptime_percentage)} uptime, no downtime`,
    );
    expect(await page.locator('.tip:visible').count()).toBe(1);
    await done(page);
  });

  it('navigates the incident calendar and the maintenance tabs', async () => {
    const page = await open('/s/acme');
    await loaded(page, MONITORS.length);
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect.poll(() => page.locator('.month-title').textContent()).toBe('October 2026');
    expect(await page.locator('.history-list .incident h3').allTextContents()).toEqual(['Login failures']);
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect.poll(() => page.locator('.month-title').textContent()).toBe('November 2026');
    expect(await page.getByRole('button', { name: 'Next month' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: /November 21, 2026: 1 incident/ }).click();
    expect(await page.locator('.history-list .incident h3').allTextContents()).toEqual(['Database failover']);

    const panel = page.getByRole('tabpanel');
    for (const [tab, status] of [
      ['Scheduled', 'scheduled'],
      ['Completed', 'completed'],
      ['In progress', 'in_progress'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      const list = await api(`/api/status-pages/acme/maintenances?status=${status}&page_size=10`);
      const titles = list.maintenances.map((m: { title: string }) => m.title);
      await expect.poll(() => panel.locator('h3').allTextContents()).toEqual(titles);
    }
    await done(page);
  });

  it('follows a dark colour scheme', async () => {
    const page = await open('/s/acme', { ...DESKTOP, colorScheme: 'dark' });
    await loaded(page, MONITORS.length);
    const colours = await page.evaluate(() => [
      getComputedStyle(document.body).backgroundColor,
      getComputedStyle(document.querySelector('.card')!).backgroundColor,
      getComputedStyle(document.body).color,
    ]);
    expect(colours).toEqual(['rgb(11, 15, 20)', 'rgb(20, 26, 34)', 'rgb(231, 236, 242)']);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'dark', false);
    await done(page);
  });

  it('fits a 360 px wide phone', async () => {
    const page = await open('/s/acme', {
      viewport: { width: 360, height: 780 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await loaded(page, MONITORS.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(
      await page
        .locator('.monitor-charts')
        .first()
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
    ).toBe(1);
    expect(await page.locator('.monitor-name').allTextContents()).toEqual(MONITORS.map((m) => m.name));
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('#monitors-title').evaluate((el) => el.scrollIntoView());
    await shoot(page, 'phone', false);
    await done(page);
  });

  it('asks a private page for its token, keeps it in the session only, then shows the data', async () => {
    const page = await open('/s/vault');
    const form = page.getByRole('form').or(page.locator('.auth-form'));
    await page.getByLabel('Access token').fill('not-the-token-0123456789');
    await page.getByRole('button', { name: 'View status' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('That token was not accepted. Check it and try again.');
    expect(await page.locator('.monitor').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Access token').fill(VAULT_TOKEN);
    await page.getByRole('button', { name: 'View status' }).click();
    await loaded(page, 1);
    expect(await form.count()).toBe(0);
    expect(await page.locator('.monitor-name').allTextContents()).toEqual(['Vault API']);
    expect(await page.evaluate(() => [Object.entries(sessionStorage), localStorage.length] as const)).toEqual(
      [[['status-page-token:vault', VAULT_TOKEN]], 0],
    );
    await page.reload(); // the same tab keeps the token
    await loaded(page, 1);
    await done(page, [
      'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);

    const linked = await open(`/s/vault?auth_token=${VAULT_TOKEN}`); // a shared link
    await loaded(linked, 1);
    expect(new URL(linked.url()).search).toBe('');
    // The token never leaves as a Referer (the stylesheet loads before the script removes it).
    expect(referers.get(linked)!.filter((referer) => referer !== '')).toEqual([]);
    await done(linked);
  });

  // Each language on a phone: the document's lang, the words of its catalogue, nothing wider than
  // 360 px (the longest words are German and French), no serious axe finding; docs/ shows them.
  it.each(LOCALES)('speaks %s on a 360 px phone', async (locale) => {
    const page = await open(`/s/acme?lang=${locale}`, {
      viewport: { width: 360, height: 780 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await loaded(page, MONITORS.length);
    const words = translate(locale);
    const charts = await api('/api/status/acme/charts');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
    expect(await page.title()).toBe(words.t('doc.title', { title: 'Acme Cloud' }));
    expect(await page.locator('.overall-label').textContent()).toBe(word('overall', charts.overall, words));
    expect(await page.locator('#monitors-title').textContent()).toBe(words.t('monitors.title'));
    expect(await page.locator('#history-title').textContent()).toBe(words.t('history.title'));
    expect(await page.locator('.monitor .state').first().textContent()).toBe(
      word('monitor', charts.monitors[0].state, words),
    );
    expect(await page.locator('nav.langs a[aria-current="true"]').getAttribute('hreflang')).toBe(locale);
    expect(await page.locator('.lang-suggest').count()).toBe(0); // chosen in the address
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, `phone-${locale}`, false);
    await done(page);
  });

  it('lets the browser language only suggest a switch, in that language, and the switch stays in the URL', async () => {
    const page = await open('/s/acme', { ...DESKTOP, locale: 'fr-FR' });
    await loaded(page, MONITORS.length);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.locator('#monitors-title').textContent()).toBe('Monitors');
    const suggestion = page.locator('.lang-suggest a');
    expect([await suggestion.textContent(), await suggestion.getAttribute('href')]).toEqual([
      'Voir cette page en français',
      '?lang=fr',
    ]);
    expect(await page.locator('.lang-suggest').getAttribute('lang')).toBe('fr');
    await suggestion.click();
    await page.waitForURL(/\?lang=fr$/);
    await loaded(page, MONITORS.length);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect(await page.locator('#monitors-title').textContent()).toBe('Sondes');
    expect(await page.locator('.lang-suggest').count()).toBe(0);
    await page.locator('nav.langs a[hreflang="ja"]').click(); // the switcher
    await page.waitForURL(/\?lang=ja$/);
    await loaded(page, MONITORS.length);
    expect(await page.locator('#monitors-title').textContent()).toBe('モニター');
    expect(await seriousViolations(page)).toEqual([]);
    await done(page);
  });

  it('answers an unknown page with a readable 404 page', async () => {
    const page = await open('/s/no-such-page');
    expect(await page.locator('h1').textContent()).toBe('Status page not found');
    expect(await seriousViolations(page)).toEqual([]);
    await done(page, [
      'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
  });

  it('sends its security headers: a CSP without inline script, nosniff, no Referer, framing by page kind', async () => {
    const headersOf = async (path: string) => {
      const res = await fetch(`${server.origin}${path}`);
      return Object.fromEntries(
        ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'].map(
          (name) => [name, res.headers.get(name)],
        ),
      );
    };
    const policy = (ancestors: string) =>
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`;
    const common = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    expect(await headersOf('/s/acme')).toEqual({
      'content-security-policy': policy('*'),
      ...common,
      'x-frame-options': null,
    });
    for (const path of ['/s/vault', '/s/no-such-page'])
      expect(await headersOf(path), path).toEqual({
        'content-security-policy': policy("'none'"),
        ...common,
        'x-frame-options': 'DENY',
      });
    const script = await fetch(`${server.origin}/static/page/v1/page.js`);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
