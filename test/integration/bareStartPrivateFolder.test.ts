// `npm start` as root from a folder only root may enter (mode 0700, as root's home and `mktemp -d`
// folders are), in a network namespace of its own: the embedded PostgreSQL runs as `postgres`,
// which cannot reach the project, so it runs from a copy of its binaries with its cluster in
// /var/lib/statuspage-read-api (README "Run it"); the service serves, finds its data after a
// restart, and Ctrl-C stops both servers. Same modes as bareStart.test.ts (BARE_START=full: a
// fresh clone, npm ci and the demo page).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ctrlC,
  FULL,
  ingestPage,
  makeProject,
  pageAnswers,
  startService,
  waitFor,
  WELCOME_END,
  type Service,
} from '../support/bareProject.ts';
import { createNamespace, namespaceUnavailable, type Namespace } from '../support/netns.ts';

// Only root switches to another user for PostgreSQL; anyone else runs it as themselves.
const skip = process.getuid?.() !== 0 ? 'not root' : namespaceUnavailable();

/** The data folder of the embedded PostgreSQL, as the welcome text names it. */
const clusterOf = (service: Service): string =>
  /PostgreSQL 18, embedded: 127\.0\.0\.1:\d+, data in (\S+)\n/.exec(service.out())?.[1] ?? '(none)';

describe.skipIf(skip !== null)('npm start as root from a folder only root may enter', () => {
  let ns: Namespace;
  let dir: string;
  let app: string;
  let cluster: string | null = null;
  const running: Service[] = [];

  beforeAll(async () => {
    ns = await createNamespace();
    dir = await mkdtemp(join(tmpdir(), 'bare-start-0700-'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    app = await makeProject(dir);
  }, 300_000);

  afterAll(async () => {
    try {
      for (const service of running) await ctrlC(service);
    } finally {
      ns?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
      if (cluster?.startsWith('/var/lib/statuspage-read-api/'))
        await rm(dirname(cluster), { recursive: true, force: true });
    }
  }, 60_000);

  it('runs PostgreSQL as postgres outside the folder, finds its data after a restart, and Ctrl-C stops it', async () => {
    const first = startService(ns, app);
    running.push(first);
    await waitFor(first, WELCOME_END, FULL ? 400_000 : 120_000);
    cluster = clusterOf(first);
    expect(cluster).toMatch(/^\/var\/lib\/statuspage-read-api\/app-[0-9a-f]{12}\/postgres$/);
    const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    expect(statSync(cluster)).toMatchObject({ uid: postgresUid });
    expect(statSync(cluster).mode & 0o777).toBe(0o700);
    if (FULL) expect(await pageAnswers(ns, 'demo', 10_000)).toContain('<html');
    await ingestPage(ns, app, first, 'private');
    expect(await pageAnswers(ns, 'private', 60_000)).toContain('Page private');

    await ctrlC(first);
    expect(existsSync(join(cluster, 'postmaster.pid'))).toBe(false); // stopped cleanly
    expect(existsSync(join(app, '.data', 'redis', 'redis.pid'))).toBe(false);

    const second = startService(ns, app);
    running.push(second);
    await waitFor(second, WELCOME_END, 120_000);
    expect(clusterOf(second)).toBe(cluster);
    expect(second.err()).not.toContain('loading demo');
    expect(await pageAnswers(ns, 'private', 10_000)).toContain('Page private');
    if (FULL) expect(await pageAnswers(ns, 'demo', 10_000)).toContain('<html');
    expect(await readFile(join(app, '.data', 'redis', 'redis.log'), 'utf8')).toMatch(
      /DB loaded from append only file/,
    );
    await ctrlC(second);
    expect(existsSync(join(cluster, 'postmaster.pid'))).toBe(false);
  }, 900_000);
});
