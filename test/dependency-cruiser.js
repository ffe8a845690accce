// Folder-level import rules, checked by `npm run lint`. ESLint's rules see one file at a time;
// a cycle between folders (a imports b, b imports a, through different files) needs the graph.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Folders depend on each other in one direction only (docs/architecture.md, "Source layout").',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'projections-stay-pure',
      comment:
        'projections/ is the pure side of each read model (docs/architecture.md, "Source layout"): it imports only projections/, src/events, src/shared and src/contract.',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^src/', pathNot: '^src/(events|shared|contract)/' },
    },
    {
      name: 'projections-do-no-io',
      comment: 'Nothing projections/ reaches, directly or not, talks to Redis, PostgreSQL, a queue or HTTP.',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: 'node_modules/(ioredis|slonik|pg|bullmq|express|prom-client)/', reachable: true },
    },
    {
      name: 'routes-read-through-models',
      comment:
        'Routes and the read-model folders they live in (src/readModels/<model>, src/routes) read Redis only through src/store, never the event log, the projector or a client of their own.',
      severity: 'error',
      from: { path: '^src/(readModels|routes)/' },
      to: {
        path: '^src/eventLog/|^src/projector/|node_modules/(ioredis|slonik|pg|bullmq)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'http-knows-no-model',
      comment:
        'src/http (route table, errors, sending bytes, the response cache) and src/store (Redis machinery, control keys) are what the model folders stand on: they import no model and no route.',
      severity: 'error',
      from: { path: '^src/(http|store)/' },
      to: { path: '^src/(readModels|routes)/' },
    },
    {
      name: 'page-script-stands-alone',
      comment:
        'The status page script runs in browsers: it imports only its own folder and the pure message catalogues and formats (no Node, no server code).',
      severity: 'error',
      from: { path: '^src/statusPage/client/' },
      to: { pathNot: '^src/statusPage/client/|^projections/locale/' },
    },
    {
      name: 'locale-stands-alone',
      comment:
        'The catalogues, `t` and the formats are shared by the page script, the server and mails: they import nothing else (types aside).',
      severity: 'error',
      from: { path: '^projections/locale/' },
      to: { pathNot: '^projections/locale/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // The entry point (nothing imports it, so it is on no cycle) starts both halves, src/runtime and
    // workers/; counted as a module of `src`, it would make `src` and `workers` a folder cycle, as
    // workers/ use src's config and apps.
    exclude: { path: '^src/main\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
