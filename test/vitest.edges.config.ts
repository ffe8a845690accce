import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

// The topology suite (`npm test` runs it after the main one; `npm run test:edges` alone): the shipped
// proxy recipes (nginx, Varnish, Caddy from Debian's packages, started privately) in front of the
// service as deployed. A config of its own: each file starts a proxy, two API processes and a
// redis-server, and watches a Redis outage for up to 35 s.
export default defineConfig({
  test: {
    root,
    include: ['test/edges/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    hookTimeout: 120_000,
    testTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
  },
});
