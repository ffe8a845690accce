import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * V8's cached-data version tag in a fresh process that first runs `script` (an ES module, under
 * tsx): the tag hashes every V8 flag's value, so two processes share it only with the same flags.
 */
const tagAfter = async (script: string): Promise<number> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `${script}\nconsole.log((await import('node:v8')).cachedDataVersionTag()); process.exit(0);`,
    ],
    { cwd: root },
  );
  return Number(stdout.trim().split('\n').at(-1));
};

describe('the API process V8 settings', () => {
  it('are --heap-growing-percent=30 and nothing else, set by loading the API listener module', async () => {
    const [untouched, expected, api] = await Promise.all([
      tagAfter(''),
      tagAfter(`(await import('node:v8')).setFlagsFromString('--heap-growing-percent=30');`),
      tagAfter(`await import('./src/runtime/serve.ts');`),
    ]);
    expect(expected).not.toBe(untouched); // the tag sees that flag
    expect(api).toBe(expected);
  }, 60_000);
});
