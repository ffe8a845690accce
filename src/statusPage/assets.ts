// The status page's script and stylesheet, bundled from src/statusPage/client and styles with
// esbuild the first time they are asked for, then kept for the life of the process: one file
// each, minified, with a strong ETag (the content hash, also used as the cache-busting `v`).
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';

export type Asset = Readonly<{ bytes: Buffer; etag: string; version: string }>;
export type PageAssets = Readonly<{ script: Asset; style: Asset }>;

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const bundle = (entry: string): Asset => {
  const options: BuildOptions = {
    entryPoints: [source(entry)],
    bundle: true,
    minify: true,
    write: false,
    ...(entry.endsWith('.ts') ? { format: 'iife' as const } : {}),
    // Browsers of the last few years; no polyfills are shipped.
    target: ['chrome100', 'firefox100', 'safari15'],
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  };
  const result = buildSync(options);
  const output = result.outputFiles?.[0];
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  const bytes = Buffer.from(output.contents);
  const version = createHash('sha1').update(bytes).digest('base64url').slice(0, 16);
  return { bytes, etag: `"${version}"`, version };
};

let built: PageAssets | null = null;

/** Builds on first use (about a tenth of a second). @throws when the sources do not compile */
export const pageAssets = (): PageAssets => {
  built ??= { script: bundle('./client/main.ts'), style: bundle('./styles/page.css') };
  return built;
};
