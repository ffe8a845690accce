// The email sign-up as a reader does it, in headless Chromium with no help from a script: from the
// status page's Subscribe link to the form, the confirm mail read at the SMTP server, the confirm
// button, the manage page and unsubscribe. No page has an inline script (the CSP would block it),
// no CSP violation happens, and axe finds nothing serious.
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousViolations, serveOnLoopback } from '../support/browser.ts';
import { startSignupFixture, type SignupFixture } from '../support/signupFixture.ts';

describe('the email sign-up in a browser', { timeout: 180_000 }, () => {
  let f: SignupFixture;
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  let browser: Browser;
  const violations: string[] = [];

  /** Checks the page as it stands: no inline script, nothing serious for axe. */
  const inspect = async (page: Page) => {
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  };

  beforeAll(async () => {
    f = await startSignupFixture();
    server = await serveOnLoopback(f.app());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    await f.close();
  });

  it('signs up, confirms, manages and unsubscribes', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`csp: ${event.violatedDirective} ${event.blockedURI}`),
      ),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    page.on('console', (message) => {
      if (message.text().startsWith('csp:')) violations.push(message.text());
    });

    await page.goto(`${server.origin}/s/acme`);
    await page.getByRole('link', { name: 'Subscribe to updates' }).click();
    await page.waitForURL(`${server.origin}/s/acme/subscribe`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Subscribe to Acme <Cloud>');
    await inspect(page);

    await page.getByLabel('Email address').fill('browser@example.org');
    await page.getByLabel('API').check();
    const arriving = f.smtp.next('browser@example.org');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await inspect(page);
    expect(await f.row('browser@example.org')).toMatchObject({ state: 'pending', components: ['API'] });

    const mail = await simpleParser((await arriving).raw);
    const link = /Confirm the subscription: http:\/\/status\.test(\S+)/.exec(mail.text ?? '')?.[1] ?? '';
    await page.goto(`${server.origin}${link}`);
    await inspect(page);
    expect(await f.row('browser@example.org')).toMatchObject({ state: 'pending' });
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.getByRole('heading', { name: 'Subscription confirmed' }).waitFor();
    await inspect(page);
    expect(await f.row('browser@example.org')).toMatchObject({ state: 'active', confirmed: true });

    await page.getByRole('link', { name: 'Your subscription to Acme <Cloud>' }).click();
    await page.getByRole('heading', { name: 'Your subscription to Acme <Cloud>' }).waitFor();
    await inspect(page);
    expect(await page.getByLabel('API').isChecked()).toBe(true);
    await page.getByLabel('API').uncheck();
    await page.getByLabel('Database').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Subscription updated' }).waitFor();
    expect(await f.row('browser@example.org')).toMatchObject({ components: ['Database'] });

    await page.getByRole('link', { name: 'Your subscription to Acme <Cloud>' }).click();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'Unsubscribed' }).waitFor();
    await inspect(page);
    expect(await f.row('browser@example.org')).toBeNull();
    expect(violations).toEqual([]);
    await context.close();
  });
});
