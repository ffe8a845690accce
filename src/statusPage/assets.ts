// The status page's scripts (one per language, each with only its own catalogue) and stylesheet,
// bundled by `npm run build` (or here, at start, when run from the sources) and served from memory
// with a strong ETag.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';
import { LOCALES, type Locale } from '../../projections/locale/locales.ts';

export type Asset = Readonly<{ bytes: Buffer; etag: string; version: string }>;
export type PageAssets = Readonly<{ scripts: Readonly<Record<Locale, Asset>>; style: Asset }>;

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const assetOf = (bytes: Buffer): Asset => {
  const version = createHash('sha1').update(bytes).digest('base64url').slice(0, 16);
  return { bytes, etag: `"${version}"`, version };
};

// The same options as build/build.js uses for built/.
const bundle = (entry: string): Buffer => {
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
  return Buffer.from(output.contents);
};

/** The file `npm run build` made, or null when running from the sources. */
const prebuilt = (name: string): Buffer | null => {
  try {
    return readFileSync(source(`./built/${name}`));
  } catch {
    return null;
  }
};

let built: PageAssets | null = null;

/** Read (or, from the sources, bundled) on first use. @throws when the sources do not compile */
export const pageAssets = (): PageAssets => {
  built ??= {
    scripts: Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        assetOf(prebuilt(`page.${locale}.js`) ?? bundle(`./client/entries/${locale}.ts`)),
      ]),
    ) as Record<Locale, Asset>,
    style: assetOf(prebuilt('page.css') ?? bundle('./styles/page.css')),
  };
  return built;
};
