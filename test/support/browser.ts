// Headless Chromium for the status page tests: Debian's `chromium` (installed by .ci/run), driven
// by playwright-core. Playwright adds --headless and a fresh temporary --user-data-dir per launch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import type { Express } from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** `extraArgs`: more Chromium flags (e.g. --host-resolver-rules). @throws when Chromium is not installed */
export const launchChromium = (extraArgs: readonly string[] = []): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does), or set CHROMIUM_PATH.`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
};

/** Listens on a free loopback port. */
export const serveOnLoopback = async (
  app: Express,
): Promise<{ origin: string; close: () => Promise<void> }> => {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * axe-core's WCAG 2.x A/AA and best-practice rules, its experimental ones too (e.g.
 * label-content-name-mismatch, WCAG 2.5.3), on the page as it is now: the serious and critical violations.
 */
export const seriousViolations = async (page: Page): Promise<AxeViolation[]> => {
  // Evaluated by the test driver, not added as an inline <script>: the page's CSP forbids those.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (o: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run({
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'],
      },
    });
    return result.violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};
