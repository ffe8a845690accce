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
      name: 'page-script-stands-alone',
      comment:
        'The status page script runs in browsers: it imports only its own folder (no Node, no server code).',
      severity: 'error',
      from: { path: '^src/statusPage/client/' },
      to: { pathNot: '^src/statusPage/client/' },
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
