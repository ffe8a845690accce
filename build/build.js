// `npm run build`: the production JavaScript in dist/, run with `node dist/main.js <command>`.
// Plain JavaScript on purpose: `npm start` runs it (prestart, with --if-stale) and needs nothing
// beyond the runtime dependencies (esbuild is one: the status page bundles its script with it).
//
// esbuild bundles src/main.ts and everything it imports from this repository (npm packages stay
// imports of node_modules) into dist/main.js plus one chunk per lazily imported command. A few
// modules read files next to themselves through `import.meta.url` (Lua scripts, the widget script,
// the status page's sources, the migrations); in a bundle every module would share the chunk's URL,
// so each such module gets the URL it would have in a tree mirrored under dist/, and those files
// are copied there: dist/src/…, dist/migrations/.
/* global process, console, performance, URL */
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.built';
/** What the output depends on: a newer file here makes dist/ stale. */
const INPUTS = [
  'src',
  'workers',
  'projections',
  'migrations',
  'package.json',
  'package-lock.json',
  'build/build.js',
];

/** Files read at run time rather than imported, copied into the mirrored tree. */
const isRuntimeFile = (path) =>
  path.startsWith('migrations/') ||
  path.startsWith('src/statusPage/client/') ||
  (path.startsWith('src/') && !path.endsWith('.ts'));

const walk = async (path) => {
  const info = await stat(join(root, path)).catch(() => null);
  if (info === null) return [];
  if (!info.isDirectory()) return [{ path, mtimeMs: info.mtimeMs }];
  const entries = await readdir(join(root, path));
  return (await Promise.all(entries.map((entry) => walk(`${path}/${entry}`)))).flat();
};

const newestInput = async () =>
  Math.max(...(await Promise.all(INPUTS.map(walk))).flat().map((file) => file.mtimeMs));

/** True when `outdir` holds a build at least as new as every input. */
export const isFresh = async (outdir) => {
  const built = await stat(join(outdir, STAMP)).catch(() => null);
  return built !== null && built.mtimeMs >= (await newestInput());
};

/** Gives every module that asks for `import.meta.url` its own URL in the mirrored tree. */
const moduleUrls = {
  name: 'module-urls',
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async (args) => {
      const path = relative(root, args.path).split(sep).join('/');
      const contents = await readFile(args.path, 'utf8');
      if (path.startsWith('..') || path.startsWith('node_modules/') || !contents.includes('import.meta.url'))
        return undefined;
      const own = JSON.stringify(`./${path.replace(/\.ts$/, '.js')}`);
      return {
        contents: contents.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

/**
 * The status page's script and stylesheet, bundled once here rather than by a process on a
 * request (src/statusPage/assets.ts reads them from built/ beside itself; same options as there).
 */
const buildStatusPageAssets = async (build, outdir) => {
  const into = join(outdir, 'src/statusPage/built');
  // One script per language (client/entries/<locale>.ts), each bundling only its own catalogue.
  const entries = await readdir(join(root, 'src/statusPage/client/entries'));
  for (const [entry, name] of [
    ...entries.map((file) => [
      `src/statusPage/client/entries/${file}`,
      `page.${file.replace(/\.ts$/, '')}.js`,
    ]),
    ['src/statusPage/styles/page.css', 'page.css'],
  ])
    await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: join(into, name),
      bundle: true,
      minify: true,
      ...(entry.endsWith('.ts') ? { format: 'iife' } : {}),
      target: ['chrome100', 'firefox100', 'safari15'],
      legalComments: 'none',
      charset: 'utf8',
      logLevel: 'warning',
    });
};

export const buildDist = async (outdir) => {
  const started = performance.now();
  await rm(outdir, { recursive: true, force: true });
  const { build } = await import('esbuild'); // not loaded when --if-stale finds the build fresh
  await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    plugins: [moduleUrls],
    logLevel: 'warning',
  });
  await buildStatusPageAssets(build, outdir);
  const copied = (await Promise.all(['src', 'migrations'].map(walk)))
    .flat()
    .filter((f) => isRuntimeFile(f.path));
  for (const { path } of copied) {
    await mkdir(dirname(join(outdir, path)), { recursive: true });
    await cp(join(root, path), join(outdir, path));
  }
  await writeFile(join(outdir, STAMP), `${new Date().toISOString()}\n`);
  return { ms: performance.now() - started, copied: copied.length };
};

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const { values } = parseArgs({
    options: { outdir: { type: 'string', default: 'dist' }, 'if-stale': { type: 'boolean', default: false } },
    strict: true,
  });
  const outdir = resolve(root, values.outdir);
  if (values['if-stale'] && (await isFresh(outdir))) process.exit(0);
  const { ms, copied } = await buildDist(outdir);
  console.error(
    `built ${relative(root, outdir) || '.'}/main.js in ${Math.round(ms)} ms (${copied} runtime files copied)`,
  );
}
