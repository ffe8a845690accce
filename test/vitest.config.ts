import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

// Each integration file gets fresh modules (isolate), in a process reused from file to file:
// forking one and loading the npm packages again cost most of a second a file.
const integration = {
  hookTimeout: 60_000,
  testTimeout: 60_000,
  pool: 'forks',
  poolOptions: { forks: { isolate: true } },
} as const;

// The API and projector tests that also run against a Redis Cluster: reads and writes of every
// model (and the partition reads' scripts), the live streams and custom domains (pub/sub),
// rebuilds and version GC, page deletion.
const ON_CLUSTER = [
  'projectorBasics',
  'projectorFigures',
  'projectorOperations',
  'pageDeletion',
  'recentChecks',
  'apiEndToEnd',
  'apiEmbed',
  'embedStream',
  'customDomains',
  'commitWritesVersioned',
  'partitionReads',
  'tokenThrottle', // its counters, one Lua script on one hash-tagged key
  'edgePurgeApis',
  'edgePurgeOutbox',
].map((name) => `test/integration/${name}.test.ts`);

export default defineConfig({
  test: {
    root,
    // At least two files at a time: the integration files mostly wait on PostgreSQL, Redis and
    // child processes (run one at a time, they kept 0.6 of a core busy), and vitest's default on
    // a two-core machine is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // No fork per file. Unit files share one process, modules and all: they mock nothing and keep
    // no global state, and a fork per file was most of their time (49 s for the project, 17 s
    // without). The integration projects reuse processes too, with fresh modules per file (above).
    poolOptions: { forks: { isolate: false } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/globalSetup.ts'],
          ...integration,
        },
      },
      {
        extends: true,
        test: {
          name: 'cluster',
          include: [...ON_CLUSTER, 'test/cluster/**/*.test.ts'],
          globalSetup: ['test/support/globalSetup.ts', 'test/support/clusterSetup.ts'],
          ...integration,
        },
      },
    ],
  },
});
