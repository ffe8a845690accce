// A page opened at its custom domain in a real browser (headless Chromium): the name resolves to
// the loopback address (--host-resolver-rules), so the request carries the domain in Host exactly
// as it would behind a proxy, and the page renders from the API at that same origin.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { launchChromium, serveOnLoopback } from '../support/browser.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const DOMAIN = 'status.acme.test';

describe('a status page at its custom domain, in a browser', { timeout: 120_000 }, () => {
  let env: ProjectorEnv;
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  let browser: Browser;

  beforeAll(async () => {
    const now = new Date();
    env = await startProjectorEnv({ now: now.toISOString() });
    const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
    await env.append(
      pageConfigured('acme', { title: 'Acme Cloud', custom_domain: DOMAIN }, minuteAgo),
      monitorConfigured('acme', 11, { name: 'Public API' }, minuteAgo),
      check('acme', 11, minuteAgo, 'up', 120),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl });
    server = await serveOnLoopback(appOf(env, config));
    browser = await launchChromium([`--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`]);
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    await env.close();
  });

  it('renders the page, its monitors and its data, all from the custom domain', async () => {
    const port = new URL(server.origin).port;
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    page.setDefaultTimeout(45_000); // a busy two-core machine can be slow, never wrong
    const problems: string[] = [];
    const origins = new Set<string>();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('request', (request) => origins.add(new URL(request.url()).host));

    const response = await page.goto(`http://${DOMAIN}:${port}/`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.monitor[data-monitor-id="11"]');
    expect(await page.textContent('#page-title')).toBe('Acme Cloud');
    expect(await page.title()).toBe('Acme Cloud status');
    expect(await page.textContent('.monitor[data-monitor-id="11"]')).toContain('Public API');
    expect(problems).toEqual([]);
    expect([...origins]).toEqual([`${DOMAIN}:${port}`]); // document, script, style and API alike
    await context.close();
  });
});
